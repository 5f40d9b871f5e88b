package dev.attribution.server.leads;

import dev.attribution.testing.TestStack;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reads one value straight from the test's PostgreSQL database, to check what the API cannot show. */
final class Db {

    private Db() {
    }

    static String one(String sql) {
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }
}
