package dev.attribution.command.products;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.api.Envelopes;
import dev.attribution.api.CommandJson;
import dev.attribution.command.products.ProductCommands.CreateProduct;
import dev.attribution.command.products.ProductCommands.DeleteProduct;
import dev.attribution.command.products.ProductCommands.ProductChanges;
import dev.attribution.command.products.ProductCommands.UpdateProduct;
import dev.attribution.command.requests.Commands;
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
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/products")
class ProductsWriteController {

    private final Commands commands;
    private final ProductCatalog catalog;

    ProductsWriteController(Commands commands, ProductCatalog catalog) {
        this.commands = commands;
        this.catalog = catalog;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateProduct.class, example = """
            {"name": "Analytical Engine manual", "price": 49.5, "category": "Books"}""")
    @Operation(summary = "Create a product (asynchronous).")
    @RequiresRole(Roles.CREATE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        CreateProduct product = ProductRules.create(CommandJson.bind(body, CreateProduct.class));
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "product:" + ProductCatalog.deriveTag(product.name()), product));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = ProductChanges.class, enforcing = true, example = """
            {"price": 44.5, "sku": "AEM-1"}""")
    @Operation(summary = "Update a product; only the fields sent change (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String id, QueryParams q, @Nullable @Body String body, Caller caller) {
        ProductChanges changes = CommandJson.bind(body, ProductChanges.class, true);
        // an unknown id is judged when the write is applied (FAILED Product not found), as on every asynchronous
        // write (docs/clients.md "Unknown ids on writes"); a known product is checked against its stored flags now
        changes = ProductRules.update(changes, catalog.flags(caller.accountId(), id));
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "product:" + id, UpdateProduct.of(id, changes)));
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a product (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_PRODUCTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String id, QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "product:" + id, new DeleteProduct(id)));
    }
}
