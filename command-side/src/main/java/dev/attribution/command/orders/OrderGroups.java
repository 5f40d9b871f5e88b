package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.views.SaleView;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Group apply of CREATE_ORDER (issue 23 point 3): new orders of a claimed batch placed together with set-based
 * statements, with the effects, results and events of {@link OrderHandlers#create} on each in turn. Groupable is an
 * order that names its buyer by email alone (no phones, IPs or stage), is its own attributed lead (no
 * {@code parentEmail}) and names no cart or subscription. Per group: which orders exist already, one statement; the
 * buyers upserted, one; the orders inserted, one; the sales inserted, one per account; the purchase flags, one. Each
 * item's product is found as for one order; the orders' results are read once per account for the group (their
 * events come from them).
 *
 * <p>An order placed again (a retry: a no-op, or refused when its content differs) and a second order of a buyer
 * already in the group are applied after the group, one by one, by {@link OrderHandlers#create}: each order's result
 * then shows its buyer as it stood after that order, as when applied alone.
 */
@Singleton
class OrderGroups {

    private final OrderHandlers handlers;
    private final OrdersTable orders;
    private final SalesTable sales;
    private final LeadResolver leads;

    OrderGroups(OrderHandlers handlers, OrdersTable orders, SalesTable sales, LeadResolver leads) {
        this.handlers = handlers;
        this.orders = orders;
        this.sales = sales;
        this.leads = leads;
    }

    /** Whether the order can be placed in a group ({@link OrderGroups}). */
    static boolean groupable(PlaceOrder p) {
        LeadResolver.Person person = PersonFields.person(p.person());
        return person != null && person.email() != null && person.email().chars().allMatch(ch -> ch < 128)
                && person.phones().isEmpty() && person.ips().isEmpty() && person.stage() == null
                && p.parentEmail() == null && p.cartId() == null && p.externalSubscriptionId() == null;
    }

    /** Places the orders; returns each one's result in the order of {@code writes}. */
    List<JsonNode> apply(Connection c, List<WriteHandler.Write> writes) throws SQLException {
        int n = writes.size();
        List<PlaceOrder> commands = new ArrayList<>(n);
        for (WriteHandler.Write w : writes) {
            commands.add(w.command(PlaceOrder.class));
        }
        Set<String> existing = orders.existing(c, writes.stream().map(w -> w.account().id()).toList(),
                commands.stream().map(PlaceOrder::orderId).toList());
        List<Integer> grouped = new ArrayList<>();
        List<Integer> alone = new ArrayList<>();
        Set<String> buyers = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String accountId = writes.get(i).account().id();
            boolean placed = existing.contains(accountId + '\u0000' + commands.get(i).orderId());
            boolean buyerAgain = !buyers.add(accountId + '\u0000' + commands.get(i).person().email().toLowerCase(Locale.ROOT));
            (placed || buyerAgain ? alone : grouped).add(i);
        }
        JsonNode[] results = new JsonNode[n];
        if (!grouped.isEmpty()) {
            placeGroup(c, writes, commands, grouped, results);
        }
        for (int i : alone) {
            WriteHandler.Write w = writes.get(i);
            results[i] = handlers.create(c, new CommandHandler.Applying(w.requestId(), w.account(), w.acceptedAt()), commands.get(i));
        }
        return java.util.Arrays.asList(results);
    }

    /** {@link OrderHandlers#createFor} of each new order of distinct buyers, set-based. */
    private void placeGroup(Connection c, List<WriteHandler.Write> writes, List<PlaceOrder> commands, List<Integer> grouped,
                            JsonNode[] results) throws SQLException {
        List<String> accountIds = new ArrayList<>();
        List<Instant> nows = new ArrayList<>();
        List<PlaceOrder> placed = new ArrayList<>();
        for (int i : grouped) {
            accountIds.add(writes.get(i).account().id());
            nows.add(writes.get(i).acceptedAt());
            placed.add(commands.get(i));
        }
        List<String> buyers = leads.upsertNamed(c, accountIds, placed.stream().map(p -> p.person().email()).toList(),
                placed.stream().map(p -> p.person().firstName()).toList(), placed.stream().map(p -> p.person().lastName()).toList(),
                nows);
        List<OrdersTable.NewOrder> rows = new ArrayList<>();
        List<List<SalesTable.NewSale>> salesOf = new ArrayList<>();
        Map<String, ProductCatalog.Product> products = new HashMap<>();
        for (int k = 0; k < grouped.size(); k++) {
            PlaceOrder p = placed.get(k);
            String currency = p.currency() != null ? p.currency() : writes.get(grouped.get(k)).account().currency();
            Instant date = p.date() != null ? Instant.parse(p.date()) : nows.get(k);
            OrderSplit.Totals totals = OrderInput.totals(p, currency, 0);
            rows.add(OrderHandlers.newOrder(p, buyers.get(k), currency, date, totals));
            salesOf.add(handlers.newSales(c, accountIds.get(k), nows.get(k), p.orderId(), buyers.get(k), buyers.get(k), p,
                    currency, date, totals, products));
        }
        orders.insertAll(c, accountIds, rows, nows);
        List<List<String>> created = insertSales(c, accountIds, nows, salesOf);
        sales.refreshFlagsMany(c, accountIds, buyers, nows);
        // each account's orders read in one go, then each order's result and events in the group's order (as one by one)
        Map<String, List<String>> orderIdsOf = new LinkedHashMap<>();
        for (int k = 0; k < grouped.size(); k++) {
            orderIdsOf.computeIfAbsent(accountIds.get(k), a -> new ArrayList<>()).add(placed.get(k).orderId());
        }
        Map<String, Map<String, List<SaleView>>> rendered = new HashMap<>();
        for (int k = 0; k < grouped.size(); k++) {
            Account account = writes.get(grouped.get(k)).account();
            rendered.computeIfAbsent(account.id(), a -> handlers.rendered(c, account, orderIdsOf.get(a)));
        }
        List<DomainEvents.Event> events = new ArrayList<>();
        for (int k = 0; k < grouped.size(); k++) {
            int i = grouped.get(k);
            Account account = writes.get(i).account();
            results[i] = OrderHandlers.withEvents(account, rendered.get(account.id()).get(placed.get(k).orderId()),
                    created.get(k), nows.get(k), events);
        }
        DomainEvents.recordAll(c, events); // in the group's order, as one by one
    }

    /**
     * The orders' sales inserted, one statement per account (and {@link SalesTable#ROWS_PER_STATEMENT}); each row
     * keeps its order's accept time. Returns each order's sale ids in item order.
     */
    private List<List<String>> insertSales(Connection c, List<String> accountIds, List<Instant> nows,
                                           List<List<SalesTable.NewSale>> salesOf) throws SQLException {
        Map<String, List<Integer>> byAccount = new LinkedHashMap<>();
        for (int k = 0; k < accountIds.size(); k++) {
            byAccount.computeIfAbsent(accountIds.get(k), a -> new ArrayList<>()).add(k);
        }
        List<List<String>> created = new ArrayList<>(java.util.Collections.nCopies(accountIds.size(), List.<String>of()));
        for (Map.Entry<String, List<Integer>> account : byAccount.entrySet()) {
            List<SalesTable.NewSale> all = new ArrayList<>();
            List<Instant> times = new ArrayList<>();
            for (int k : account.getValue()) {
                all.addAll(salesOf.get(k));
                times.addAll(java.util.Collections.nCopies(salesOf.get(k).size(), nows.get(k)));
            }
            List<String> ids = sales.insertAll(c, account.getKey(), all, times);
            int from = 0;
            for (int k : account.getValue()) {
                created.set(k, ids.subList(from, from + salesOf.get(k).size()));
                from += salesOf.get(k).size();
            }
        }
        return created;
    }
}
