package dev.attribution.api;

import java.util.List;

/**
 * The type of a body field that takes one string or an array of strings (spec 4.1: {@code tags},
 * {@code phoneNumbers}), as {@link JsonBody#stringOrList} reads it. Used in {@link RequestBodyType} records.
 */
public record StringOrList(List<String> values) {
}
