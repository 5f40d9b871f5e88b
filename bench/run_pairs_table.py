"""The figures of bench/run.sh logs pairN-before.log / pairN-after.log in DIR, pair by pair, then the median of each
figure per build and in how many pairs the after build did better (bench/run-pairs.sh)."""
import os
import re
import statistics
import sys

FIGURES = [  # name, regular expression over a log (the last match), higher is better
    ('closed loop writes/s', r'accepted_per_second=(\d+)', True),
    ('5,000/s phase sent in s', r'paced_sent=50000 late_sends=\d+ paced_seconds=([\d.]+)', False),
    ('500/s accept p50 ms', r'paced_sent=5000 .*?accept_p50_ms=([\d.]+)', False),
    ('500/s accept p99 ms', r'paced_sent=5000 .*?accept_p99_ms=([\d.]+)', False),
    ('created→visible p50 ms', r'^visible_p50_ms=([\d.]+)', False),
    ('created→visible p99 ms', r'visible_p99_ms=([\d.]+) visible_max', False),
    ('sent→visible p50 ms', r'sent_visible_p50_ms=([\d.]+)', False),
    ('sent→visible p99 ms', r'sent_visible_p99_ms=([\d.]+)', False),
    ('apply rate /s', r'apply_rate_per_s=(\d+)', True),
]


def figures(path):
    text = open(path).read()
    out = {}
    for name, pattern, _ in FIGURES:
        found = re.findall(pattern, text, flags=re.M)
        out[name] = float(found[-1]) if found else None
    return out


def main(logs):
    pairs = []
    i = 1
    while os.path.exists(os.path.join(logs, f'pair{i}-before.log')):
        before, after = figures(os.path.join(logs, f'pair{i}-before.log')), figures(os.path.join(logs, f'pair{i}-after.log'))
        pairs.append((i, before, after))
        print(f'pair {i}: ' + '; '.join(f'{n} {before[n]} → {after[n]}' for n, _, _ in FIGURES))
        i += 1
    print()
    for name, _, higher in FIGURES:
        both = [(b[name], a[name]) for _, b, a in pairs if b[name] is not None and a[name] is not None]
        if not both:
            print(f'{name}: no figure')
            continue
        better = sum((a > b) if higher else (a < b) for b, a in both)
        worse = sum((a < b) if higher else (a > b) for b, a in both)
        print(f'{name}: median {statistics.median(b for b, _ in both):g} → {statistics.median(a for _, a in both):g}; '
              f'after better in {better}, worse in {worse} of {len(both)}')


if __name__ == '__main__':
    main(sys.argv[1])
