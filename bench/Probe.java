import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Created→visible in ClickHouse under load (issue 23 point 3; bench/run.sh's sustained phase). Run with the JDK's
 * single-file launcher: java bench/Probe.java APP_URL API_KEY CLICKHOUSE_URL CLICKHOUSE_DB SECONDS.
 * <p>
 * Every second one probe lead (POST /api/v1.0/leads, a unique email) is written beside the load; one thread asks
 * ClickHouse every 50 ms which of the probes not yet seen are in {@code leads}, and the time from the probe's send to
 * the first answer that shows it is its created→visible time (what a report reading ClickHouse waits for). After
 * SECONDS, up to 120 s more for the probes still unseen. Prints visible_ch_p50/p99/max_ms over the probes and how many
 * were never seen. With samples every second a 5-minute run has 300: p99 is its 3rd-worst.
 */
public class Probe {

    public static void main(String[] args) throws Exception {
        String app = args[0];
        String key = args[1];
        String ch = args[2];
        String db = args[3];
        int seconds = Integer.parseInt(args[4]);
        String tag = Long.toString(System.currentTimeMillis(), 36);
        Map<String, Long> unseen = new ConcurrentHashMap<>();
        List<Long> visibleMs = Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread watcher = new Thread(() -> {
            while (System.nanoTime() < end + 120_000_000_000L && !(System.nanoTime() > end && unseen.isEmpty())) {
                try {
                    if (!unseen.isEmpty()) {
                        StringBuilder in = new StringBuilder();
                        unseen.keySet().forEach(e -> in.append(in.length() == 0 ? "" : ",").append('\'').append(e).append('\''));
                        long asked = System.nanoTime();
                        for (String email : clickhouse(ch, "SELECT DISTINCT email FROM " + db + ".leads WHERE email IN (" + in + ")").split("\n")) {
                            Long sent = unseen.remove(email.trim());
                            if (sent != null) {
                                visibleMs.add((asked - sent) / 1_000_000);
                            }
                        }
                    }
                    Thread.sleep(50);
                } catch (IOException | InterruptedException e) {
                    System.err.println("probe: " + e.getMessage());
                }
            }
        });
        watcher.start();
        for (int i = 0; System.nanoTime() < end; i++) {
            long due = System.nanoTime() + 1_000_000_000L;
            String email = "probe-" + tag + "-" + i + "@example.com";
            long sent = System.nanoTime();
            int status = post(app + "/api/v1.0/leads", key, "{\"email\":\"" + email + "\",\"firstName\":\"Probe\"}");
            if (status == 200) {
                unseen.put(email, sent);
            } else {
                System.err.println("probe write answered " + status);
            }
            Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
        }
        watcher.join();
        List<Long> v = new ArrayList<>(visibleMs);
        Collections.sort(v);
        int n = v.size();
        System.out.printf("probes=%d visible_ch_p50_ms=%d visible_ch_p99_ms=%d visible_ch_max_ms=%d never_seen=%d%n", n + unseen.size(),
                n == 0 ? -1 : v.get(n / 2), n == 0 ? -1 : v.get(Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)),
                n == 0 ? -1 : v.get(n - 1), unseen.size());
    }

    private static int post(String url, String key, String body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setRequestProperty("API-Key", key);
        c.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = c.getOutputStream()) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            if (in != null) {
                in.readAllBytes();
            }
        }
        return status;
    }

    private static String clickhouse(String ch, String sql) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(ch + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)).toURL().openConnection();
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
