package dev.attribution.command.sales;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.Envelopes;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.concurrent.CompletableFuture;

/** Sale writes of spec 4.2. */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/sales")
class SalesWriteController {

    private final Commands commands;
    private final WriteAcceptance acceptance;

    SalesWriteController(Commands commands, WriteAcceptance acceptance) {
        this.commands = commands;
        this.acceptance = acceptance;
    }

    @Put(consumes = MediaType.ALL)
    @Operation(operationId = "updateSales",
            summary = "Update sales selected by ids: refund, recurring flag (asynchronous).")
    @RequiresRole(Roles.UPDATE_SALES)
    @QueryParameters(Query.class)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(QueryParams q, Caller caller) {
        return acceptance.accept(() -> {
            SaleCommands.UpdateSales update = SaleRules.update(q);
            return commands.submit(caller.accountId(), SaleRules.lane(update), update);
        });
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a sale (asynchronous).")
    @RequiresRole(Roles.DELETE_SALES)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> delete(@PathVariable String id, Caller caller) {
        return acceptance.accept(() -> commands.submit(caller.accountId(), "sale:" + id, new SaleCommands.DeleteSale(id)));
    }

    interface Query extends QueryParameter {
        Spec ids = Spec.list(50, "sale ids").required();
        Spec isRecurringSale = Spec.bool("mark the sales recurring or not");
        Spec isRefunded = Spec.bool("mark the sales refunded or not");
        Spec refundedDate = Spec.date("when the refund happened");
        Spec refundedAmount = Spec.string("refunded amount, a plain number");
    }
}
