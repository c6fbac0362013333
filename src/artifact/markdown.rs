//! TEMP stub until the real module lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Code,
    Proposal,
    Mixed,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SegmentKind {
    Code,
    Proposal,
}
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Segment {
    pub kind: SegmentKind,
    pub heading_path: Vec<String>,
    pub start: usize,
    pub end: usize,
    pub lang: Option<String>,
}
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Detection {
    pub target: Target,
    pub reasons: Vec<String>,
}
pub fn detect(_text: &str, _p: Option<&str>) -> Detection {
    Detection {
        target: Target::Proposal,
        reasons: vec![],
    }
}
pub fn split(_text: &str) -> Vec<Segment> {
    vec![]
}
