package dev.attribution.command.requests;

import dev.attribution.command.requests.WriteClaims.Pending;
import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How group apply cuts a claimed batch: round r holds the r-th write of each ordering key, in accept order. */
class GroupApplyRoundsTest {

    @Test
    void eachKeysWritesFallInSuccessiveRoundsInAcceptOrder() {
        // keys in accept order: A create, B create, A update, C create, A update, B update
        List<Pending> batch = batch(1, 2, 1, 3, 1, 2);
        assertEquals(List.of(List.of(0, 1, 3), List.of(2, 5), List.of(4)), GroupApply.rounds(batch));
    }

    @Test
    void distinctKeysMakeOneRound() {
        assertEquals(List.of(List.of(0, 1, 2, 3)), GroupApply.rounds(batch(7, 8, 9, 10)));
        assertEquals(List.of(), GroupApply.rounds(List.of()));
    }

    private static List<Pending> batch(int... keys) {
        List<Pending> out = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            out.add(new Pending(i, keys[i], "req_" + i, "acc", "CREATE_LEAD", "{}", new Timestamp(0)));
        }
        return out;
    }
}
