package dev.attribution.testing;

import io.micronaut.test.support.TestPropertyProvider;
import org.junit.jupiter.api.TestInstance;

import java.util.Map;

/**
 * Base for {@code @MicronautTest} classes that need the real servers: supplies {@link TestStack}'s properties.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StackTest implements TestPropertyProvider {

    @Override
    public Map<String, String> getProperties() {
        return TestStack.get().properties();
    }
}
