"""Top methods of a JFR recording: jfr-top.py FILE.json [THREAD_REGEX] [N] (from jfr print --json --stack-depth 200)."""
import json, sys, re, collections
d = json.load(open(sys.argv[1]))
rx = re.compile(sys.argv[2] if len(sys.argv) > 2 else '.')
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
ev = d['recording']['events']
incl = collections.Counter(); selfc = collections.Counter(); n = 0; threads = collections.Counter()
for e in ev:
    if e['type'] != 'jdk.ExecutionSample': continue
    t = e['values']['sampledThread']
    name = (t.get('javaName') or t.get('osName') or '?')
    g = re.sub(r'[-#]?\d+$', '', name)
    threads[g] += 1
    if not rx.search(name): continue
    n += 1
    frames = e['values']['stackTrace']['frames'] if e['values'].get('stackTrace') else []
    seen = set()
    for i, f in enumerate(frames):
        m = f['method']; key = m['type']['name'] + '.' + m['name']
        if i == 0: selfc[key] += 1
        if key not in seen: seen.add(key); incl[key] += 1
print('threads:', dict(threads.most_common(12)))
print('selected samples', n)
print('--- self')
for k, v in selfc.most_common(25): print('%5.1f%% %s' % (100*v/n, k))
print('--- inclusive')
for k, v in incl.most_common(top): print('%5.1f%% %s' % (100*v/n, k))
