package dev.attribution.command.adspend;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * One line of a spend file: an ad's numbers for one day (docs/ad-spend-import.md). Ids are the platform's own.
 * {@code keywordId}/{@code keyword}/{@code matchType} are optional: a search keyword of the ad set. {@code adName} is
 * optional: the ad's name on the platform, given to an ad that has none yet (spec 2.6 SourceLinkAd.name).
 */
public record SpendRow(long line, String platform, String adAccountId, String campaignId, String adSetId, String adId,
                       LocalDate day, BigDecimal spend, long impressions, long clicks, long videoViews,
                       BigDecimal reportedConversions, BigDecimal reportedRevenue, String currency,
                       String keywordId, String keyword, String matchType, String adName) {
}
