package dev.attribution.api;

import dev.attribution.clickhouse.ClickHouseGatewayException;
import io.micronaut.http.HttpStatus;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tells a failure caused by an unreachable store (PostgreSQL or ClickHouse down, restarting, or out of connections)
 * from a bug: the former is a {@code 503} with {@code Retry-After} that a client retries, the latter stays a 500.
 * The one place that reads an exception chain for that.
 */
public final class DependencyOutage {

    /** Seconds a client is asked to wait before retrying while a store is unreachable. */
    public static final int RETRY_AFTER_SECONDS = 5;

    private DependencyOutage() {
    }

    /** The store ("PostgreSQL" or "ClickHouse") whose unavailability caused {@code failure}, if that is the cause. */
    public static Optional<String> of(Throwable failure) {
        boolean clickHouse = false;
        boolean unreachable = false;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof ClickHouseGatewayException) {
                clickHouse = true;
            }
            if (t instanceof SQLTransientConnectionException || (t instanceof SQLException s && connectionState(s.getSQLState()))) {
                return Optional.of("PostgreSQL");
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof UnknownHostException
                    || (t instanceof SocketTimeoutException && t.getMessage() != null && t.getMessage().contains("connect"))
                    || t.getClass().getName().equals("com.clickhouse.client.api.ConnectionInitiationException")) {
                unreachable = true;
            }
        }
        return clickHouse && unreachable ? Optional.of("ClickHouse") : Optional.empty();
    }

    /** The 503 answer for an unreachable {@code store}: the error envelope and {@code Retry-After}. */
    public static ApiException unavailable(String store) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
                List.of("Service unavailable: " + store + " cannot be reached; retry after " + RETRY_AFTER_SECONDS + " seconds"),
                Map.of("Retry-After", Integer.toString(RETRY_AFTER_SECONDS)));
    }

    /** SQLSTATE class 08 (connection exception) or 57P01–57P03 (server shutting down, crashed, starting). */
    private static boolean connectionState(String state) {
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"));
    }
}
