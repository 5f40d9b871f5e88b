package dev.attribution.server.admin;

import dev.attribution.api.RoleSettings;

import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The context of a one-shot admin command: the datasource and the beans the command asks for, no HTTP server, no
 * worker, no CDC bridge (docs/BENCHMARKS.md "Admin CLI start-up"). Flyway runs only when the database lacks a
 * migration the jar brings: the context starts with it off, compares the versions in {@code flyway_schema_history}
 * with the {@code V…__*.sql} files under {@code db/migration}, and only then starts again with it on (the server's own
 * configuration, application.yml). ClickHouse DDL is never applied by the admin CLI (the server applies it).
 */
final class AdminContext {

    private static final String MIGRATIONS = "db/migration";
    private static final Pattern VERSION = Pattern.compile("(?:^|/)V(\\d+(?:_\\d+)*)__[^/]*\\.sql$");

    private AdminContext() {
    }

    /** A started context; the caller closes it. */
    static ApplicationContext start() {
        ApplicationContext ctx = build(false);
        boolean pending;
        try {
            pending = pending(DelegatingDataSource.unwrapDataSource(ctx.getBean(DataSource.class)));
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
        if (!pending) {
            return ctx;
        }
        ctx.close();
        return build(true);
    }

    private static ApplicationContext build(boolean flyway) {
        Map<String, Object> props = new HashMap<>();
        props.put("clickhouse.migrate", "false");
        props.put(RoleSettings.COMMAND, "false");
        props.put(RoleSettings.CDC, "false");
        if (!flyway) {
            props.put("flyway.datasources.default.enabled", "false");
        }
        return ApplicationContext.builder().properties(props).deduceEnvironment(false).start();
    }

    /** True when a migration file of the classpath is not recorded as applied (or the history table is missing). */
    static boolean pending(DataSource dataSource) {
        Set<String> applied = new HashSet<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return true;
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL")) {
                while (rs.next()) {
                    applied.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read PostgreSQL's migration history: " + e.getMessage(), e);
        }
        Set<String> shipped = shipped();
        return shipped.isEmpty() || !applied.containsAll(shipped);
    }

    /** The versions of the migration files on the classpath, as Flyway records them ({@code V100_22__x.sql} → 100.22). */
    static Set<String> shipped() {
        Set<String> versions = new HashSet<>();
        try {
            var urls = AdminContext.class.getClassLoader().getResources(MIGRATIONS);
            while (urls.hasMoreElements()) {
                URL url = urls.nextElement();
                for (String name : names(url)) {
                    Matcher m = VERSION.matcher(name);
                    if (m.find()) {
                        versions.add(m.group(1).replace('_', '.'));
                    }
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list " + MIGRATIONS + ": " + e.getMessage(), e);
        }
        return versions;
    }

    private static Set<String> names(URL url) throws IOException, URISyntaxException {
        Set<String> names = new HashSet<>();
        if ("jar".equals(url.getProtocol())) {
            JarURLConnection jar = (JarURLConnection) url.openConnection();
            jar.setUseCaches(false);
            try (JarFile file = jar.getJarFile()) {
                file.stream().map(java.util.zip.ZipEntry::getName).filter(n -> n.startsWith(MIGRATIONS + "/")).forEach(names::add);
            }
        } else if ("file".equals(url.getProtocol())) {
            try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                files.map(p -> p.getFileName().toString()).forEach(names::add);
            }
        }
        return names;
    }
}
