package dev.attribution.command.orders;

import dev.attribution.api.auth.Account;
import dev.attribution.command.leads.LeadTagListener;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Connects the leads' {@link LeadTagListener} hook to {@link TagSales} (spec 3.2): a {@code $} tag a lead did not hold
 * and that a product carries becomes a sale dated when the tag was assigned ({@code tagsDate}).
 */
@Singleton
class TagSaleListener implements LeadTagListener {

    private final Provider<TagSales> sales; // TagSales reaches LeadStore again: resolved lazily

    TagSaleListener(Provider<TagSales> sales) {
        this.sales = sales;
    }

    @Override
    public boolean tagAdded(Connection connection, Account account, String leadId, String tag, Instant assignedAt) throws SQLException {
        return sales.get().saleForTag(connection, account, leadId, tag, assignedAt, Instant.now()).isPresent();
    }
}
