package dev.attribution.clickhouse;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link ClickHouseGateway} over the official {@code com.clickhouse:client-v2} HTTP client, with server-response
 * compression off (18.16 answers small compressed results with an empty body) and an explicit FORMAT in every read.
 * Several endpoints (replicas of a cluster, {@code CLICKHOUSE_URL} a comma-separated list): statements go to the
 * current one and move to the next when it cannot be reached (refused or unresolvable connection, never after an
 * answer), so a dead replica does not stop reads, writes or the CDC sink.
 */
public final class ClientV2Gateway implements ClickHouseGateway {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final long TIMEOUT_SECONDS = 300;

    private final List<Client> clients;
    private final List<String> urls;
    /** Index of the endpoint in use: the last one that answered. */
    private final java.util.concurrent.atomic.AtomicInteger current = new java.util.concurrent.atomic.AtomicInteger();
    private final String database;
    /** Threads for {@link #selectAll}: each waits on one HTTP answer; idle ones end after a minute. */
    private final java.util.concurrent.ExecutorService concurrent = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE,
            60, TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "clickhouse-select");
                t.setDaemon(true);
                return t;
            });

    public ClientV2Gateway(String url, String database, String username, String password) {
        this(List.of(url), database, username, password, java.util.Map.of());
    }

    /** {@code urls}: one or more HTTP endpoints, tried in order; {@code settings}: ClickHouse settings sent with every query. */
    public ClientV2Gateway(List<String> urls, String database, String username, String password, java.util.Map<String, String> settings) {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no ClickHouse URL");
        }
        this.database = database;
        this.urls = List.copyOf(urls);
        this.clients = urls.stream().map(url -> {
            Client.Builder b = new Client.Builder()
                    .addEndpoint(url)
                    .setUsername(username)
                    .setPassword(password == null ? "" : password)
                    .compressServerResponse(false)
                    .compressClientRequest(false)
                    .setDefaultDatabase("default");
            settings.forEach(b::serverSetting);
            return b.build();
        }).toList();
    }

    /** The endpoints of {@code clickhouse.url}: one URL or several separated by commas. */
    public static List<String> endpoints(String url) {
        return java.util.Arrays.stream(url.split(",")).map(String::trim).filter(u -> !u.isEmpty()).toList();
    }

    /**
     * The settings every query needs on a sharded cluster (docs/scaling.md): {@code distributed_product_mode=local}
     * (an IN/JOIN subquery over a Distributed table reads the shard's local table: right because an account's rows
     * are all on one shard, where 18.16 otherwise refuses with error 288) and {@code insert_distributed_sync=1} (an
     * insert returns once every shard has its rows, so the CDC sink's offsets never run ahead of ClickHouse).
     */
    public static java.util.Map<String, String> clusterSettings(String cluster) {
        return cluster == null || cluster.isBlank() ? java.util.Map.of()
                : java.util.Map.of("distributed_product_mode", "local", "insert_distributed_sync", "1");
    }

    /** Runs {@code op} on the current endpoint, then on the next ones while an endpoint cannot be reached. */
    private <T> T failover(java.util.function.Function<Client, T> op) {
        int start = current.get();
        RuntimeException last = null;
        for (int i = 0; i < clients.size(); i++) {
            int at = (start + i) % clients.size();
            try {
                T result = op.apply(clients.get(at));
                if (at != start) {
                    current.set(at);
                    org.slf4j.LoggerFactory.getLogger(ClientV2Gateway.class).warn("ClickHouse {} unreachable; using {}", urls.get(start), urls.get(at));
                }
                return result;
            } catch (RuntimeException e) {
                if (clients.size() == 1 || !unreachable(e)) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    private static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException || t.getClass().getSimpleName().equals("ConnectionInitiationException")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<JsonNode> select(String sql) {
        return failover(client -> select(client, sql));
    }

    private static List<JsonNode> select(Client client, String sql) {
        try (QueryResponse response = await(client.query(sql + "\nFORMAT JSONEachRow"));
             BufferedReader reader = new BufferedReader(new InputStreamReader(response.getInputStream(), StandardCharsets.UTF_8))) {
            List<JsonNode> rows = new ArrayList<>();
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty()) {
                    rows.add(MAPPER.readTree(line));
                }
            }
            return rows;
        } catch (ClickHouseGatewayException e) {
            throw e;
        } catch (Exception e) {
            throw new ClickHouseGatewayException("ClickHouse query failed: " + e.getMessage(), e);
        }
    }

    @Override
    public <T> T selectRowBinary(String sql, java.util.function.Function<RowBinaryInput, T> reader) {
        return failover(client -> selectRowBinary(client, sql, reader));
    }

    private static <T> T selectRowBinary(Client client, String sql, java.util.function.Function<RowBinaryInput, T> reader) {
        // the answer starts only once the query has ended: an error is an HTTP error, not text after some rows
        QuerySettings settings = new QuerySettings().waitEndOfQuery(true);
        try (QueryResponse response = await(client.query(sql + "\nFORMAT RowBinary", settings))) {
            return reader.apply(new RowBinaryInput(response.getInputStream()));
        } catch (ClickHouseGatewayException e) {
            throw e;
        } catch (Exception e) {
            throw new ClickHouseGatewayException("ClickHouse query failed: " + e.getMessage(), e);
        }
    }

    @Override
    public <T> java.util.function.Supplier<T> selectRowBinaryLater(String sql, java.util.function.Function<RowBinaryInput, T> reader) {
        java.util.concurrent.Future<T> running = concurrent.submit(() -> selectRowBinary(sql, reader));
        return () -> await(running);
    }

    @Override
    public List<List<JsonNode>> selectAll(List<String> sqls) {
        if (sqls.size() < 2) {
            return ClickHouseGateway.super.selectAll(sqls);
        }
        List<java.util.concurrent.Future<List<JsonNode>>> running = new ArrayList<>();
        for (String sql : sqls.subList(1, sqls.size())) {
            running.add(concurrent.submit(() -> select(sql)));
        }
        List<List<JsonNode>> out = new ArrayList<>();
        try {
            out.add(select(sqls.get(0)));
            for (java.util.concurrent.Future<List<JsonNode>> f : running) {
                out.add(await(f));
            }
            return out;
        } finally {
            running.forEach(f -> f.cancel(true));
        }
    }

    @Override
    public java.util.function.Supplier<List<JsonNode>> selectLater(String sql) {
        java.util.concurrent.Future<List<JsonNode>> running = concurrent.submit(() -> select(sql));
        return () -> await(running);
    }

    @Override
    public void execute(String sql) {
        execute(sql, java.time.Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    @Override
    public void execute(String sql, java.time.Duration timeout) {
        failover(client -> {
            execute(client, sql, timeout);
            return null;
        });
    }

    private static void execute(Client client, String sql, java.time.Duration timeout) {
        try {
            await(client.execute(sql), timeout.toSeconds()).close();
        } catch (ClickHouseGatewayException e) {
            throw e;
        } catch (Exception e) {
            throw new ClickHouseGatewayException("ClickHouse statement failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void insertJsonEachRow(String table, byte[] jsonLines) {
        failover(client -> {
            insertJsonEachRow(client, database + "." + table, table, jsonLines);
            return null;
        });
    }

    private static void insertJsonEachRow(Client client, String qualified, String table, byte[] jsonLines) {
        InsertSettings settings = new InsertSettings()
                .serverSetting("input_format_skip_unknown_fields", "1");
        try {
            await(client.insert(qualified, new ByteArrayInputStream(jsonLines), ClickHouseFormat.JSONEachRow, settings)).close();
        } catch (ClickHouseGatewayException e) {
            throw e;
        } catch (Exception e) {
            throw new ClickHouseGatewayException("ClickHouse insert into " + table + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean ping() {
        try {
            return !select("SELECT 1 AS ok").isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String database() {
        return database;
    }

    @Override
    public void close() {
        concurrent.shutdownNow();
        clients.forEach(Client::close);
    }

    private static <T> T await(java.util.concurrent.Future<T> future) {
        return await(future, TIMEOUT_SECONDS);
    }

    private static <T> T await(java.util.concurrent.Future<T> future, long timeoutSeconds) {
        try {
            return future.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClickHouseGatewayException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof ClickHouseGatewayException same) {
                throw same;
            }
            throw new ClickHouseGatewayException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new ClickHouseGatewayException("ClickHouse did not answer within " + timeoutSeconds + " s", e);
        }
    }
}
