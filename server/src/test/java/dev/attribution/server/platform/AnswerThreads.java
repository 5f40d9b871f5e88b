package dev.attribution.server.platform;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the thread that runs the answer of each write route (only where a test switches it on): the response
 * filters, access-log line and JSON body of an accepted write run there.
 */
@ServerFilter("/api/v1.0/leads/**")
@Requires(property = "test.answer-threads", value = "true")
class AnswerThreads {

    static final List<String> NAMES = new CopyOnWriteArrayList<>();

    @ResponseFilter
    void answered(HttpRequest<?> request) {
        if (request.getMethodName().equals("POST")) {
            NAMES.add(Thread.currentThread().getName());
        }
    }
}
