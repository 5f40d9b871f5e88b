package dev.attribution.command.customcosts;

import dev.attribution.command.customcosts.CustomCostFields.Frequency;

import java.math.BigDecimal;
import java.util.List;

/**
 * The custom cost commands (spec 4.10): the cost's id beside its checked fields, stored flat as before. (Flat, not
 * {@code @JsonUnwrapped}: Jackson 2.21 cannot read a number inside an unwrapped record of a record creator.)
 */
public final class CustomCostCommands {

    private CustomCostCommands() {
    }

    /** {@code POST /custom-costs} (CREATE_CUSTOM_COST): the id is given when accepted. */
    public record CreateCustomCost(String id, String startDate, String endDate, Frequency frequency, BigDecimal cost,
                                   List<String> tags, String name) {
        static CreateCustomCost of(String id, CustomCostFields f) {
            return new CreateCustomCost(id, f.startDate(), f.endDate(), f.frequency(), f.cost(), f.tags(), f.name());
        }

        CustomCostFields fields() {
            return new CustomCostFields(startDate, endDate, frequency, cost, tags, name);
        }
    }

    /** {@code PUT /custom-costs/{id}} (UPDATE_CUSTOM_COST): a full replacement of a cost that must exist. */
    public record UpdateCustomCost(String id, String startDate, String endDate, Frequency frequency, BigDecimal cost,
                                   List<String> tags, String name) {
        static UpdateCustomCost of(String id, CustomCostFields f) {
            return new UpdateCustomCost(id, f.startDate(), f.endDate(), f.frequency(), f.cost(), f.tags(), f.name());
        }

        CustomCostFields fields() {
            return new CustomCostFields(startDate, endDate, frequency, cost, tags, name);
        }
    }

    /** {@code DELETE /custom-costs/{id}} (DELETE_CUSTOM_COST). */
    public record DeleteCustomCost(String id) {
    }
}
