package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.WriteClaims.Pending;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fast path of one claimed batch (issue 23 point 3, group apply): writes of the same type are applied together by
 * their {@link GroupWriteHandler}, with set-based statements, instead of one by one.
 *
 * <p>Order: the batch is cut into rounds, round {@code r} holding the {@code r}-th write of each ordering key
 * ({@link WriteClaims}), in accept order; rounds are applied one after the other, so a lead's writes in one batch (a
 * create, then its updates) are still applied one after the other, in accept order. Within a round no two writes
 * share a key: its groupable writes of each type are applied first, as one group per type, then the others one by
 * one in accept order. Writes of different keys were never ordered relative to each other (other transactions apply
 * them in parallel, WriteClaims); within a round that holds here too.
 *
 * <p>All or nothing: any failure (a write that is refused, a statement that fails) is thrown, and
 * {@link WriteWorker} rolls the attempt back and applies the batch one write at a time behind savepoints, as before.
 */
final class GroupApply {

    /** A write that cannot be applied on the fast path (no handler, no account): the batch goes one by one. */
    static final class NotGroupable extends RuntimeException {
        NotGroupable() {
            super(null, null, false, false);
        }
    }

    private final Map<String, WriteHandler> handlers;

    GroupApply(Map<String, WriteHandler> handlers) {
        this.handlers = handlers;
    }

    /**
     * The batch's writes, each payload parsed once for the whole batch ({@link #lockAhead} and {@link #apply} share
     * them, and each write keeps its command record once read, {@link WriteHandler.Write#command}); null for a write
     * without handler or account, or whose payload is not JSON (it goes one by one).
     */
    List<WriteHandler.Write> writes(List<Pending> batch, Map<String, Optional<Account>> accounts) {
        List<WriteHandler.Write> writes = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            Optional<Account> account = accounts.get(p.accountId());
            WriteHandler.Write w = null;
            if (handlers.containsKey(p.eventType()) && account != null && account.isPresent()) {
                try {
                    w = new WriteHandler.Write(p.id(), account.get(), JsonBody.mapper().readTree(p.payload()), p.createdAt().toInstant());
                } catch (Exception e) {
                    // not readable: the write fails when applied one by one
                }
            }
            writes.add(w);
        }
        return writes;
    }

    /** Applies the batch ({@code writes}: {@link #writes} of it); returns each write's result (JSON text or null) in batch order. */
    List<String> apply(Connection c, List<Pending> batch, List<WriteHandler.Write> batchWrites) throws Exception {
        String[] results = new String[batch.size()];
        for (List<Integer> round : rounds(batch)) {
            Map<String, List<Integer>> groups = new LinkedHashMap<>();
            List<Integer> alone = new ArrayList<>();
            Map<Integer, WriteHandler.Write> writes = new HashMap<>();
            for (int i : round) {
                Pending p = batch.get(i);
                WriteHandler handler = handlers.get(p.eventType());
                WriteHandler.Write w = batchWrites.get(i);
                if (handler == null || w == null) {
                    throw new NotGroupable();
                }
                writes.put(i, w);
                if (handler instanceof GroupWriteHandler g && g.groupable(w)) {
                    groups.computeIfAbsent(p.eventType(), t -> new ArrayList<>()).add(i);
                } else {
                    alone.add(i);
                }
            }
            for (Map.Entry<String, List<Integer>> group : groups.entrySet()) {
                List<Integer> members = group.getValue();
                if (members.size() == 1) {
                    alone.add(members.get(0));
                    continue;
                }
                GroupWriteHandler handler = (GroupWriteHandler) handlers.get(group.getKey());
                List<JsonNode> out = handler.applyGroup(c, members.stream().map(writes::get).toList());
                for (int k = 0; k < members.size(); k++) {
                    results[members.get(k)] = text(out.get(k));
                }
            }
            alone.sort(null);
            for (int i : alone) {
                results[i] = text(handlers.get(batch.get(i).eventType()).apply(c, writes.get(i)));
            }
        }
        return java.util.Arrays.asList(results);
    }

    /**
     * Takes every advisory lock the batch's writes will wait for ({@link WriteHandler#advisoryLocks}, one call per
     * event type), in one statement and in one global order (by key): two batches needing the same locks then wait
     * for each other once, at their start, instead of taking them item by item in different orders and deadlocking
     * (seen with orders naming the same products: each deadlock cost a second of detection and the whole batch
     * again). {@code sentFirst}, a statement without parameters (the batch's {@link DeferredTouches#DEFER}), goes in
     * the same round trip, also when there is nothing to lock.
     */
    void lockAhead(Connection c, List<Pending> batch, List<WriteHandler.Write> writes, String sentFirst) throws SQLException {
        Map<String, List<WriteHandler.Write>> byType = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            if (writes.get(i) != null) {
                byType.computeIfAbsent(batch.get(i).eventType(), t -> new ArrayList<>()).add(writes.get(i));
            }
        }
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, List<WriteHandler.Write>> type : byType.entrySet()) {
            try {
                names.addAll(handlers.get(type.getKey()).advisoryLocks(c, type.getValue()));
            } catch (RuntimeException e) {
                // a payload its handler cannot read: these writes take no lock ahead (they fail when applied)
            }
        }
        if (names.isEmpty()) {
            try (Statement s = c.createStatement()) {
                s.execute(sentFirst);
            }
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(sentFirst + """
                ;
                SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtext(n)::bigint AS k FROM unnest(?::text[]) AS u(n) ORDER BY 1) s""")) {
            ps.setArray(1, c.createArrayOf("text", names.toArray()));
            ps.execute();
        }
    }

    /** The batch's positions by round: round r holds the r-th write of each ordering key, in batch order. */
    static List<List<Integer>> rounds(List<Pending> batch) {
        Map<Integer, Integer> seen = new HashMap<>();
        List<List<Integer>> rounds = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            int r = seen.merge(batch.get(i).key(), 1, Integer::sum) - 1;
            while (rounds.size() <= r) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(r).add(i);
        }
        return rounds;
    }

    private static String text(JsonNode result) {
        return result == null ? null : result.toString();
    }
}
