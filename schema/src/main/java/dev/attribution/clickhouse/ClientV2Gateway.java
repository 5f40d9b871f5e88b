package dev.attribution.clickhouse;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QueryResponse;
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
    public void execute(String sql) {
        try {
            await(client.execute(sql)).close();
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
        client.close();
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClickHouseGatewayException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ClickHouseGatewayException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new ClickHouseGatewayException("ClickHouse did not answer within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
