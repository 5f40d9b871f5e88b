package dev.attribution.command.products;

import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;


/** Product writes of spec 4.6; PUT and DELETE by id refuse unknown parameters and fields. */
@Controller("/api/v1.0/products")
class ProductsWriteController {

    private final ProductWrites writes;

    ProductsWriteController(ProductWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = ProductCreateBody.class, example = """
            {"name": "Analytical Engine manual", "price": 49.5, "category": "Books"}""")
    @Operation(summary = "Create a product (asynchronous).")
    @RequiresRole(Roles.CREATE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body, ProductCreateBody.class)));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = ProductUpdateBody.class, enforcing = true, example = """
            {"price": 44.5, "sku": "AEM-1"}""")
    @Operation(summary = "Update a product; only the fields sent change (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String id, QueryParams q, @Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, id, JsonBody.parse(body, ProductUpdateBody.class)));
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a product (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String id, QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, id));
    }
}
