package dev.attribution.server.observability;

import dev.attribution.api.RequestIds;
import dev.attribution.api.UnfilteredAnswers;
import jakarta.inject.Singleton;

/**
 * The answers Netty gives before any filter sees the request ({@code HttpFraming}: an undecodable head, a request
 * line over the limit, an unknown HTTP version), counted and logged like the others: route {@code unmatched}, a new
 * request id, no account.
 */
@Singleton
class UnfilteredAnswerLog implements UnfilteredAnswers {

    private final RequestTimers timers;
    private final AccessLog accessLog;

    UnfilteredAnswerLog(RequestTimers timers, AccessLog accessLog) {
        this.timers = timers;
        this.accessLog = accessLog;
    }

    @Override
    public void answered(String method, int status, long nanos) {
        timers.record(method, RequestObservation.UNMATCHED, status, nanos);
        accessLog.write(method, RequestObservation.UNMATCHED, status, nanos, null, RequestIds.next());
    }
}
