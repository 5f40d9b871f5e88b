package dev.attribution.server.observability;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A route that logs while it answers, on the blocking pool as the API's routes run (only where a test switches it on):
 * its line must carry the request's id like every line a request causes.
 */
@Controller("/test-probe")
@Requires(property = "test.log-probe", value = "true")
class LogProbeController {

    static final Logger LOG = LoggerFactory.getLogger(LogProbeController.class);

    @Get
    @ExecuteOn(TaskExecutors.BLOCKING)
    String probe() {
        LOG.info("probe answered");
        return "{}";
    }
}
