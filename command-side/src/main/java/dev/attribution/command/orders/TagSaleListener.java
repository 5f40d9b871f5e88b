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

    private final Provider<TagSales> sales; // TagSales reaches LeadTags again: resolved lazily
    private volatile TagSales resolved; // once: a provider lookup per added tag was ~2 % of the workers' samples

    TagSaleListener(Provider<TagSales> sales) {
        this.sales = sales;
    }

    private TagSales sales() {
        TagSales s = resolved;
        if (s == null) {
            s = sales.get();
            resolved = s;
        }
        return s;
    }

    @Override
    public boolean tagAdded(Connection connection, Account account, String leadId, String tag, Instant assignedAt) throws SQLException {
        return sales().saleForTag(connection, account, leadId, tag, assignedAt, Instant.now()).isPresent();
    }
}
