package dev.attribution.server.observability;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON lines some loggers write, encoded as production encodes them (logback.xml: a plain {@link LogstashEncoder}),
 * captured in memory while open. Sets the loggers' levels for the while and gives them back on close.
 */
final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new OutputStreamAppender<>();
    private final Map<Logger, Level> levels = new HashMap<>();

    LogCapture(Map<String, Level> loggers) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogstashEncoder encoder = new LogstashEncoder();
        encoder.setContext(context);
        encoder.start();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(out);
        appender.start();
        loggers.forEach((name, level) -> {
            Logger logger = context.getLogger(name);
            levels.put(logger, logger.getLevel());
            logger.setLevel(level);
            logger.addAppender(appender);
        });
    }

    /** Every line written so far, parsed. */
    synchronized List<JsonNode> lines() {
        List<JsonNode> lines = new ArrayList<>();
        String text;
        synchronized (out) {
            text = out.toString(StandardCharsets.UTF_8);
        }
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                try {
                    lines.add(JsonBody.mapper().readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException("not a JSON line: " + line, e);
                }
            }
        }
        return lines;
    }

    @Override
    public void close() {
        levels.forEach((logger, level) -> {
            logger.detachAppender(appender);
            logger.setLevel(level);
        });
        appender.stop();
    }
}
