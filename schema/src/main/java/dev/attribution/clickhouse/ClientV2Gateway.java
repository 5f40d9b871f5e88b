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
 */
public final class ClientV2Gateway implements ClickHouseGateway {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final long TIMEOUT_SECONDS = 300;

    private final Client client;
    private final String database;
    /** Threads for {@link #selectAll}: each waits on one HTTP answer; idle ones end after a minute. */
    private final java.util.concurrent.ExecutorService concurrent = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE,
            60, TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "clickhouse-select");
                t.setDaemon(true);
                return t;
            });

    public ClientV2Gateway(String url, String database, String username, String password) {
        this.database = database;
        this.client = new Client.Builder()
                .addEndpoint(url)
                .setUsername(username)
                .setPassword(password == null ? "" : password)
                .compressServerResponse(false)
                .compressClientRequest(false)
                .setDefaultDatabase("default")
                .build();
    }

    @Override
    public List<JsonNode> select(String sql) {
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
        InsertSettings settings = new InsertSettings()
                .serverSetting("input_format_skip_unknown_fields", "1");
        try {
            await(client.insert(database + "." + table, new ByteArrayInputStream(jsonLines), ClickHouseFormat.JSONEachRow, settings)).close();
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
        client.close();
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
