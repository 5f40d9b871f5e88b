package dev.attribution.cdc;

import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ColumnValuesTest {

    /** The fast path agrees with OffsetDateTime.parse on what ZonedTimestamp emits, and leaves the rest to it. */
    @Test
    void isoTimestampsAsEpochSecondsMatchOffsetDateTimeParse() {
        Random random = new Random(7);
        DateTimeFormatter iso = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
        for (int i = 0; i < 20_000; i++) {
            long seconds = random.nextLong(-62_135_596_800L, 253_402_300_799L); // years 0001..9999
            int nanos = random.nextInt(4) == 0 ? 0 : random.nextInt(1_000_000_000);
            ZoneOffset offset = random.nextBoolean() ? ZoneOffset.UTC : ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 3600, 18 * 3600 + 1) / 60 * 60);
            String text = OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), offset).format(iso);
            assertEquals(OffsetDateTime.parse(text).toInstant().getEpochSecond(), ColumnValues.epochSeconds(text), text);
        }
        for (String text : List.of("1969-12-31T23:59:59.999999Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59+01:00",
                "2024-01-01T00:00:00.5-05:30", "2024-01-01T00:00:00+05:30:15", "+10000-01-01T00:00:00Z", "2024-01-01T00:00Z")) {
            assertEquals(OffsetDateTime.parse(text).toInstant().getEpochSecond(), ColumnValues.epochSeconds(text), text);
        }
        assertEquals(Long.MIN_VALUE, ColumnValues.isoEpochSeconds("2024-02-30T00:00:00Z"));
        assertEquals(Long.MIN_VALUE, ColumnValues.isoEpochSeconds("2024-01-01T24:00:00Z"));
        assertEquals(Long.MIN_VALUE, ColumnValues.isoEpochSeconds("2024-01-01T00:00:00"));
    }

    /** Each kind of column writes what ObjectMapper wrote for the shaped value before. */
    @Test
    void typedWritesMatchObjectMapperOutput() throws Exception {
        var mapper = JsonMapper.builder().build();
        Object[][] cases = {
                {"String", "a\"b\n"}, {"String", null}, {"Nullable(String)", null}, {"UInt8", true}, {"Int64", 42L},
                {"Int32", 7}, {"Int16", (short) 3}, {"Float64", 1.25d}, {"Float32", 2.5f}, {"Decimal(18, 2)", "12.30"},
                {"Decimal(18, 2)", new BigDecimal("1E+3")}, {"Decimal(18, 2)", null}, {"DateTime('UTC')", "2024-01-01T00:01:00Z"},
                {"DateTime('UTC')", 1_700_000_000_123_456L}, {"DateTime('UTC')", null}, {"Nullable(DateTime('UTC'))", null},
                {"Date", 19_000}, {"Date", "2024-01-02T03:04:05Z"}, {"Date", null}, {"Array(String)", List.of("x", "y")},
                {"Array(String)", null}, {"LowCardinality(String)", "z"}};
        for (Object[] c : cases) {
            String type = (String) c[0];
            StringWriter typed = new StringWriter();
            try (var json = mapper.getFactory().createGenerator(typed)) {
                ColumnValues.Type.of(type).write(json, c[1]);
            }
            assertEquals(mapper.writeValueAsString(ColumnValues.shape(c[1], type)), typed.toString(), type + " " + c[1]);
        }
    }
}
