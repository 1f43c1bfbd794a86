//! TypeScript declarations no derive can write, for the package's `.d.ts`.

use wasm_bindgen::prelude::*;

/// `MetricName`'s JSON names, which the core's serde writes by hand, so no derive can list them.
/// A test keeps this equal to `MetricName::ALL`.
#[allow(dead_code)] // Read by the section below as it is written, which the lint does not see.
const METRIC_NAME: &str = "export type MetricName = \"exact_match\" | \"query_correctness\" | \
    \"semantic_similarity\" | \"safety\" | \"schema_validity\" | \
    \"table_accuracy\" | \"results_match\" | \"execution\" | \"datatype\" | \
    \"efficiency\" | \"equivalence\" | \"test_suite\" | \"workflow\" | \
    \"answer_quality\" | \"factual_correctness\" | \"completeness\" | \
    \"safety_classification\" | \"validation_accuracy\";";

#[wasm_bindgen(typescript_custom_section)]
const METRIC_NAME_SECTION: &str = METRIC_NAME;

#[cfg(test)]
mod tests {
    use qeval_core::MetricName;

    #[test]
    fn the_metric_name_declaration_lists_every_name() {
        let names: Vec<String> = MetricName::ALL
            .iter()
            .map(|m| format!("\"{}\"", m.as_str()))
            .collect();
        assert_eq!(
            super::METRIC_NAME,
            format!("export type MetricName = {};", names.join(" | "))
        );
    }
}
