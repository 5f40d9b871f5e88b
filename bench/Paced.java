import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends POST /api/v1.0/leads at a fixed rate (open loop: the schedule does not wait for answers) and prints the
 * acceptance latencies. Run with the JDK's single-file launcher: java bench/Paced.java URL KEY RATE SECONDS.
 * PACED_MIX=mixed: a mixed load instead, in turn a new lead, a click of it (POST /clicks) and an order of it with one
 * item (POST /orders). PACED_PATH=/x sends every write to that path instead (e.g. a path the server answers 404 at
 * once: the sender measured against a trivial endpoint).
 * <p>
 * Write i is due at start + i / RATE. One dispatcher thread waits for each write's due time and hands it to an idle
 * keep-alive HTTP/1.1 connection (one blocking thread each, PACED_CONNECTIONS = 64 opened before the start); with
 * PACED_MAX_CONNECTIONS above that, when every connection is waiting for an answer it opens another, up to that many
 * (the sustained phase of bench/run.sh and bench/sender-check.sh use 2,048), so the offered rate does not depend on
 * how fast the server answers. By default no more are opened: bench/run.sh's open loops at 500 and 5,000 writes/s
 * stay comparable with their earlier figures (with 2,048 allowed, the 5,000/s phase opened them all and the 500/s
 * phase after it was accepted at p50 3.66 and 3.82 s on two builds instead of 30–55 ms, 2026-11-27 06:31–06:43).
 * (Before 2026-11-27 the 64 connections were all there was: a closed loop of 64 once answers slowed, at most
 * 64 / latency writes/s — 46 ms answers capped the sender at ~1,400/s, which is why the sustained runs of 2026-11-27
 * 03:41 ramped from 40 to 2,000/s instead of sending 3,000/s.) A write
 * that goes out more than 10 ms after its due time is counted in {@code late_sends}. Latency is reported from the send
 * ({@code accept_*}) and from the due time ({@code due_*}: includes the wait for a connection). With PACED_TRACE=FILE
 * every write's due time and latencies are written there too (to see whether slow answers come together, i.e. a
 * stall). The sender's own CPU per write ({@code sender_cpu_us_per_write}, the whole JVM: compiler and GC included) and
 * the connections it needed are printed too, and the answers other than 200 by kind ({@code non_200_by_kind}: status,
 * {@code +Retry-After} when the answer had one, {@code timeout} for no answer within 30 s, {@code io} for a closed or
 * refused connection). With PACED_SENDS=FILE, each measured write answered 200 is written there as
 * {@code request_id,sent} (sent in microseconds since the epoch, this machine's clock): bench/stack.sh
 * {@code sent_to_visible} joins it with the request log, for the time from a write's send until GET /leads shows it.
 * <p>
 * The measured writes follow PACED_WARMUP seconds (default 3) of the same schedule that are sent but not counted: the
 * sender's own start — a fresh JVM, 64 threads, its send path interpreted while the JIT compiles it — made every run's
 * first ~2 s late by 0.3–0.7 s even against a server warmed for minutes (traces of 2026-11-25 20:25: due p50 278 and
 * 572 ms in the first two half-seconds, 2 ms from 2 s on, while the answers from the send stayed at 5–17 ms).
 * <p>
 * Plain sockets rather than java.net.http: at 500 writes/s the JDK client took 50–85 % of one of the machine's two
 * cores (a fresh JVM, futures and its selector thread per request), competing with the server it measures.
 */
public class Paced {
    private static final int CONNECTIONS = Integer.parseInt(System.getenv().getOrDefault("PACED_CONNECTIONS", "64"));
    private static final int MAX_CONNECTIONS = Integer.parseInt(System.getenv().getOrDefault("PACED_MAX_CONNECTIONS", String.valueOf(CONNECTIONS)));

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        String key = args[1];
        int rate = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        int total = rate * seconds;
        int warm = rate * Integer.parseInt(System.getenv().getOrDefault("PACED_WARMUP", "3"));
        long intervalNanos = 1_000_000_000L / rate;
        long[] fromSend = new long[total];
        long[] fromDue = new long[total];
        String sends = System.getenv("PACED_SENDS");
        String[] requestIds = new String[total];
        long[] sentMicros = new long[total];
        // the wall clock of a send, from the monotonic one: both read once here
        java.time.Instant now = java.time.Instant.now();
        long nano0 = System.nanoTime();
        long wall0 = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
        AtomicInteger late = new AtomicInteger();
        // the answers other than 200 by kind: the status, "+Retry-After" when the answer carried one; "timeout" (no
        // answer in 30 s) and "io" (connection refused or closed) for none
        java.util.concurrent.ConcurrentMap<String, AtomicInteger> non200Kinds = new java.util.concurrent.ConcurrentSkipListMap<>();
        String tag = Long.toString(System.currentTimeMillis(), 36);
        boolean mixed = "mixed".equals(System.getenv("PACED_MIX"));
        String onlyPath = System.getenv("PACED_PATH");
        long cpu0 = processCpuNanos();
        // the schedule starts 1 s from now: the first connections are opened before it (not on its first send), and
        // the launcher's own start-up (it compiles this file) is over
        long start = System.nanoTime() + 1_000_000_000L;
        BlockingQueue<Sender> idle = new LinkedBlockingQueue<>();
        List<Sender> senders = new ArrayList<>();
        Sender.Job job = (w, due, c) -> {
            int i = w - warm;   // negative: a warm-up write, sent on the schedule but not counted
            long sent = System.nanoTime();
            if (i >= 0 && sent - due > 10_000_000L) {
                late.incrementAndGet();
            }
            String body;
            String path = "/api/v1.0/leads";
            if (!mixed || Math.floorMod(w, 3) == 0) {
                body = "{\"email\":\"paced-" + tag + "-" + w + "@example.com\",\"firstName\":\"Paced\"}";
            } else if (Math.floorMod(w, 3) == 1) {   // a click of the lead written just before
                path = "/api/v1.0/clicks";
                body = "{\"referrerUrl\":\"https://shop.example.com/?utm_source=paced\",\"email\":\"paced-" + tag + "-" + (w - 1)
                        + "@example.com\",\"ip\":\"10.0." + (w / 250 % 250) + "." + (w % 250) + "\"}";
            } else {                                  // then its order, one item
                path = "/api/v1.0/orders";
                body = "{\"orderId\":\"paced-" + tag + "-" + w + "\",\"email\":\"paced-" + tag + "-" + (w - 2)
                        + "@example.com\",\"items\":[{\"name\":\"Widget " + (w % 10) + "\",\"price\":9.5}]}";
            }
            if (onlyPath != null) {
                path = onlyPath;
            }
            int status;
            String kind;
            try {
                if (c[0] == null) {
                    c[0] = new Connection(url);
                }
                status = c[0].post(path, key, body);
                kind = status + (c[0].retryAfter ? "+Retry-After" : "");
            } catch (IOException e) {
                status = -1;
                kind = e instanceof java.net.SocketTimeoutException ? "timeout" : "io";
                c[0] = Connection.close(c[0]);
            }
            long done = System.nanoTime();
            if (i >= 0) {
                fromSend[i] = done - sent;
                fromDue[i] = done - due;
                sentMicros[i] = wall0 + (sent - nano0) / 1000;
                if (status == 200 && sends != null) {
                    requestIds[i] = c[0].requestId();
                }
                if (status != 200) {
                    non200Kinds.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                }
            }
        };
        for (int t = 0; t < Math.min(CONNECTIONS, MAX_CONNECTIONS); t++) {
            senders.add(Sender.start(url, job, idle, senders.size(), true));
        }
        // the dispatcher: each write at its due time to an idle connection, a new one when none is idle
        for (int w = 0; w < warm + total; w++) {
            long due = start + w * intervalNanos;
            for (long wait; (wait = due - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(wait);
            }
            Sender s = idle.poll();
            if (s == null && senders.size() < MAX_CONNECTIONS) {
                s = Sender.start(url, job, idle, senders.size(), false);
                senders.add(s);
            } else if (s == null) {
                s = idle.take();
            }
            s.hand(w, due);
        }
        for (Sender s : senders) {
            s.hand(-1, 0);
        }
        for (Sender s : senders) {
            s.thread.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9 - (double) warm / rate;
        long cpu = processCpuNanos() - cpu0;
        String trace = System.getenv("PACED_TRACE");
        if (trace != null) {
            // one line per measured write: its due time (ms from the measurement's start) and its latency from the send and from the due time
            try (java.io.PrintWriter w = new java.io.PrintWriter(trace)) {
                for (int i = 0; i < total; i++) {
                    w.printf("%.3f %.3f %.3f%n", i * intervalNanos / 1e6, fromSend[i] / 1e6, fromDue[i] / 1e6);
                }
            }
        }
        if (sends != null) {
            try (java.io.PrintWriter w = new java.io.PrintWriter(sends)) {
                for (int i = 0; i < total; i++) {
                    if (requestIds[i] != null) {
                        w.println(requestIds[i] + "," + sentMicros[i]);
                    }
                }
            }
        }
        Arrays.sort(fromSend);
        Arrays.sort(fromDue);
        System.out.printf("paced_warmup_sent=%d paced_sent=%d late_sends=%d paced_seconds=%.1f non_200=%d accept_p50_ms=%.2f accept_p99_ms=%.2f "
                        + "due_p50_ms=%.2f due_p99_ms=%.2f connections=%d sender_cpu_us_per_write=%.0f%n", warm, total, late.get(), elapsed,
                non200Kinds.values().stream().mapToInt(AtomicInteger::get).sum(), fromSend[total / 2] / 1e6, fromSend[(int) (total * 0.99)] / 1e6, fromDue[total / 2] / 1e6,
                fromDue[(int) (total * 0.99)] / 1e6, senders.size(), cpu / 1e3 / (warm + total));
        if (!non200Kinds.isEmpty()) {
            System.out.println("non_200_by_kind=" + non200Kinds.toString().replace(" ", ""));
        }
    }

    /** CPU time of this JVM so far (all its threads), or 0 when the platform does not tell. */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** One connection and its thread: takes a write from the dispatcher, sends it, waits for the answer, is idle again. */
    private static final class Sender {
        interface Job {
            void run(int w, long due, Connection[] c);
        }

        final Thread thread;
        private final BlockingQueue<long[]> next = new ArrayBlockingQueue<>(1);

        private Sender(URI url, Job job, BlockingQueue<Sender> idle, int n, boolean connectNow) {
            thread = new Thread(() -> {
                Connection[] c = new Connection[1];
                if (connectNow) {
                    try {
                        c[0] = new Connection(url);
                    } catch (IOException e) {
                        // opened again on its first send
                    }
                    idle.add(this);   // a sender started for a write (not connectNow) is handed that write at once
                }
                try {
                    for (long[] w; (w = next.take())[0] >= 0; ) {
                        job.run((int) w[0], w[1], c);
                        idle.add(this);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Connection.close(c[0]);
            }, "paced-" + n);
        }

        /**
         * A sender whose connection is opened now, idle once open (connectNow), or one for the write about to be handed
         * to it, its connection opened by that write's send.
         */
        static Sender start(URI url, Job job, BlockingQueue<Sender> idle, int n, boolean connectNow) {
            Sender s = new Sender(url, job, idle, n, connectNow);
            s.thread.start();
            return s;
        }

        /** Gives this (idle) sender write {@code w} due at {@code due}; w = -1 ends it. */
        void hand(int w, long due) throws InterruptedException {
            next.put(new long[]{w, due});
        }
    }

    /** One keep-alive HTTP/1.1 connection; answers are read by their Content-Length. */
    private static final class Connection {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final String host;
        /** Whether the last answer carried a Retry-After header. */
        boolean retryAfter;
        /** The last answer's body. */
        private byte[] answer = new byte[0];

        Connection(URI url) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), 5000);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 8192);
            host = url.getHost() + ":" + url.getPort();
        }

        int post(String path, String key, String body) throws IOException {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAPI-Key: " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + b.length + "\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.US_ASCII);
            byte[] req = Arrays.copyOf(h, h.length + b.length);
            System.arraycopy(b, 0, req, h.length, b.length);
            out.write(req);
            out.flush();
            String status = line();
            int length = -1;
            retryAfter = false;
            for (String l; !(l = line()).isEmpty(); ) {
                if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(l.substring(15).trim());
                } else if (l.regionMatches(true, 0, "retry-after:", 0, 12)) {
                    retryAfter = true;
                }
            }
            if (length < 0) {
                throw new IOException("answer without Content-Length: " + status);
            }
            answer = in.readNBytes(length);
            return Integer.parseInt(status.split(" ")[1]);
        }

        /** The {@code request_id} of the last answer, or null. */
        String requestId() {
            java.util.regex.Matcher m = REQUEST_ID.matcher(new String(answer, StandardCharsets.UTF_8));
            return m.find() ? m.group(1) : null;
        }

        private static final java.util.regex.Pattern REQUEST_ID = java.util.regex.Pattern.compile("\"request_id\"\\s*:\\s*\"([^\"]+)\"");

        private String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int ch; (ch = in.read()) != '\n'; ) {
                if (ch < 0) {
                    throw new IOException("connection closed");
                }
                if (ch != '\r') {
                    s.append((char) ch);
                }
            }
            return s.toString();
        }

        static Connection close(Connection c) {
            if (c != null) {
                try {
                    c.socket.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
            return null;
        }
    }
}
