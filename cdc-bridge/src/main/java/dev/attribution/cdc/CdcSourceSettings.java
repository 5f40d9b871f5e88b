package dev.attribution.cdc;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The PostgreSQL the bridge replicates from: the server's own datasource ({@code datasources.default.url},
 * {@code username}, {@code password}), read here once for Debezium and the CDC role's connection. The keys and their
 * defaults ({@code POSTGRES_URL}, {@code POSTGRES_USER}, {@code POSTGRES_PASSWORD}) are defined once, in the server's
 * {@code application.yml} beside the connection pool; this class only checks what the bridge needs of them.
 */
@ConfigurationProperties("datasources.default")
public class CdcSourceSettings {

    private String url;
    private String username;
    private String password = "";

    /** A {@code jdbc:postgresql://host:port/database} URL (Debezium takes host, port and database from it). */
    public String getUrl() {
        if (url == null) {
            throw new IllegalStateException("datasources.default.url is not set (POSTGRES_URL)");
        }
        return url;
    }

    public void setUrl(String url) {
        if (url == null || !url.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("datasources.default.url must be a jdbc:postgresql:// URL, not " + url);
        }
        this.url = url;
    }

    public String getUsername() {
        if (username == null || username.isBlank()) {
            throw new IllegalStateException("datasources.default.username is not set (POSTGRES_USER)");
        }
        return username;
    }

    public void setUsername(String username) { this.username = username; }
    public String getPassword() { return password; }
    public void setPassword(String password) { this.password = password == null ? "" : password; }
}
