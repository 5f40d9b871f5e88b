package dev.attribution.server;

import dev.attribution.server.admin.AdminCli;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeIn;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;

import java.util.Arrays;

/**
 * One JVM running the command, query and CDC roles (each switchable with {@code attribution.roles.*}).
 * {@code java -jar attribution-server.jar admin …} runs the admin CLI instead.
 */
@OpenAPIDefinition(
        info = @Info(title = "Attribution API", version = "1.44",
                description = "Self-hosted attribution and lead-tracking API. Every path is under /api/v1.0."),
        security = @SecurityRequirement(name = "API-Key"))
@SecurityScheme(name = "API-Key", type = SecuritySchemeType.APIKEY, in = SecuritySchemeIn.HEADER, paramName = "API-Key")
public class Application {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("admin")) {
            System.exit(AdminCli.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        Micronaut.build(args).mainClass(Application.class).banner(false).start();
    }
}
