package dev.attribution.command.calls;

/** {@code DELETE /calls/{id}} (DELETE_CALL). */
public record DeleteCall(String id) {
}
