package dev.attribution.server.commerce;

import dev.attribution.api.CommandJson;
import dev.attribution.api.JsonBody;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;
import dev.attribution.command.orders.OrderInput;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 25: an order's content digest (docs/commerce.md "Orders") is computed from the command record as the
 * versions before command records computed it from their payload, byte for byte, so an order they stored is
 * recognised when a client sends it again. The expected digests were computed by the previous version's
 * {@code OrderInput.digest} (main at 04920d7) on these same payloads.
 */
class OrderDigestTest {

    @Test
    void theDigestOfAStoredOrderIsTheOneThePreviousVersionStored() throws Exception {
        PlaceOrder order = CommandJson.read(JsonBody.mapper().readTree("""
                {"orderId":"dg-1","email":"d@example.com","phoneNumbers":[],"leadIps":[],"priceFormat":"DECIMAL",
                 "shippingCost":"5","hardCost":"1.5","items":[{"name":"Digest kettle","price":"20.00","taxes":"0.5",
                 "quantity":2,"sku":"K-1","tag":"$kettle","isRebill":true,"packages":["Home"]},
                 {"name":"Digest cup","price":"3","quantity":1,"categoryName":"Cups","isRebill":false,"packages":[]}]}"""),
                PlaceOrder.class);
        assertEquals("2f5364c165df88d98358aa28ad2e7d3a8d9815344da88937808ba8e4a5def1e1", OrderInput.digest(order, "USD"));
        PlaceOrder stored = CommandJson.read(CommandJson.tree(order), PlaceOrder.class);
        assertEquals(OrderInput.digest(order, "USD"), OrderInput.digest(stored, "USD"), "the same once stored as the record");
    }

    @Test
    void integerAmountsInAnotherCurrency() throws Exception {
        UpdateOrder order = CommandJson.read(JsonBody.mapper().readTree("""
                {"id":"x","priceFormat":"INTEGER","currency":"EUR","items":[{"name":"Digest cents","price":"1999",
                 "quantity":3,"externalId":"x-1","isRebill":false,"packages":[]}]}"""), UpdateOrder.class);
        assertEquals("54d0a9ff9351647041cda50ec279327ca966786a53ff99bc66560f06f7fdfc00", OrderInput.digest(order, "EUR"));
    }
}
