package dev.attribution.command.commerce;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import dev.attribution.api.ApiException;

import java.io.IOException;
import java.math.BigDecimal;

/**
 * How the fields of an item in a commerce body ({@code items[i].price}…) are bound, with the messages of the
 * versions before command records: a refused item field is named with its item, {@code items[0].price must be a
 * number}. And how an amount is read back from a stored payload, where earlier versions wrote it as a string.
 */
public final class ItemJson {

    private ItemJson() {
    }

    /** The field being read, with its item when inside an array: {@code items[2].price}. */
    public static String path(JsonParser p) {
        JsonStreamContext c = p.getParsingContext();
        String field = c.getCurrentName();
        JsonStreamContext array = c.getParent();
        if (array != null && array.inArray() && array.getParent() != null && array.getParent().getCurrentName() != null) {
            return array.getParent().getCurrentName() + "[" + array.getCurrentIndex() + "]." + field;
        }
        return field;
    }

    /** An item's text field: a JSON string, else {@code items[i].name must be a string}. */
    public static final class Text extends JsonDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                throw ApiException.badRequest(path(p) + " must be a string");
            }
            return p.getText();
        }
    }

    /** An item's amount as a body sends it: a JSON number, else {@code items[i].price must be a number}. */
    public static final class Number extends JsonDeserializer<BigDecimal> {
        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.currentToken().isNumeric()) {
                throw ApiException.badRequest(path(p) + " must be a number");
            }
            return p.getDecimalValue();
        }
    }

    /** An amount in a stored payload: a number, or the decimal string earlier versions stored. */
    public static final class Stored extends JsonDeserializer<BigDecimal> {
        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                return new BigDecimal(p.getText().trim());
            }
            return p.getDecimalValue();
        }
    }
}
