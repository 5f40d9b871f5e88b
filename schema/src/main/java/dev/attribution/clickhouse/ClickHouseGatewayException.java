package dev.attribution.clickhouse;

/** ClickHouse refused or failed a statement. */
public class ClickHouseGatewayException extends RuntimeException {
    public ClickHouseGatewayException(String message, Throwable cause) {
        super(message, cause);
    }
}
