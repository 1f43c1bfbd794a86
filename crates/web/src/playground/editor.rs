//! The bridge to the query editors (CodeMirror, bundled from `www/editor` into a script the page
//! loads before the app): mounting one, keeping its text, language and schema in step with the
//! app, and the findings it marks in the text.

use qeval_core::{Place, QueryReport, Severity};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_namespace = qevalEditor)]
extern "C" {
    /// Mounts an editor in a shadow root of `host`; `settings` holds `text`, `language`,
    /// `dialect`, `schema`, `label` and `onChange`.
    pub fn mount(host: &web_sys::Element, id: &str, settings: &JsValue);
    pub fn unmount(id: &str);
    /// Replaces the editor's text unless it already holds `text`.
    #[wasm_bindgen(js_name = setText)]
    pub fn set_text(id: &str, text: &str);
    /// Changes any of `language`, `dialect` and `schema`.
    pub fn configure(id: &str, changes: &JsValue);
    #[wasm_bindgen(js_name = setMarkers)]
    fn set_markers_js(id: &str, markers: &JsValue);
    /// Focuses the editor, its cursor where it was.
    pub fn focus(id: &str);
    /// Focuses the editor with the cursor at a 1-based line and column.
    #[wasm_bindgen(js_name = focusAt)]
    pub fn focus_at(id: &str, line: f64, column: f64);
}

/// A finding to mark in the editor's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marker {
    pub line: u64,
    pub column: u64,
    /// Absent: the marker covers the word at its start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<u64>,
    pub severity: Severity,
    pub message: String,
    /// What found it, shown beside the message: "parse" or "safety".
    pub source: &'static str,
}

impl Marker {
    fn at(place: Place, severity: Severity, message: String, source: &'static str) -> Marker {
        Marker {
            line: place.line,
            column: place.column,
            end_line: Some(place.end_line),
            end_column: Some(place.end_column),
            severity,
            message,
            source,
        }
    }
}

/// The findings to mark in a query: its parse error, and the safety metric's violations and
/// warnings (`safety` is that metric's details, for the generated query only) where they have a
/// place. A parse error is also a safety violation; it is marked once.
pub fn markers(report: &QueryReport, safety: Option<&serde_json::Value>) -> Vec<Marker> {
    let mut markers = Vec::new();
    if let Some(error) = &report.parse_error {
        if let (Some(line), Some(column)) = (error.line, error.column) {
            markers.push(Marker {
                line,
                column,
                end_line: None,
                end_column: None,
                severity: Severity::Error,
                message: format!("Does not parse: {}", error.message),
                source: "parse",
            });
        }
        return markers;
    }
    let Some(safety) = safety else {
        return markers;
    };
    for (key, severity) in [
        ("violations", Severity::Error),
        ("warnings", Severity::Warning),
    ] {
        let findings = safety[key]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        for finding in findings {
            let place = serde_json::from_value::<Place>(finding["place"].clone()).ok();
            let reason = finding["reason"].as_str().unwrap_or_default();
            if let Some(place) = place {
                let message = match severity {
                    Severity::Error => format!("Not read-only: {reason}"),
                    Severity::Warning => format!("Warning: {reason}"),
                };
                markers.push(Marker::at(place, severity, message, "safety"));
            }
        }
    }
    markers
}

pub fn set_markers(id: &str, markers: &[Marker]) {
    set_markers_js(id, &to_js(&markers));
}

/// A value as a plain JavaScript object (through JSON, which every value here has).
pub fn to_js(value: &impl Serialize) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|text| js_sys::JSON::parse(&text).ok())
        .unwrap_or(JsValue::NULL)
}
