//! The wire shape of one list page (`items`, `metadata.resourceVersion`, `metadata.continue`),
//! decoded with the informer's slim type. Owns only that shape; must not decide anything.

use serde::Deserialize;

/// One page of a list response.
#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub(super) struct Page<T> {
    /// `metadata` of the list.
    #[serde(default)]
    pub(super) metadata: PageMeta,
    /// `items` (a `null` list is empty).
    #[serde(default = "Vec::new", deserialize_with = "null_as_empty")]
    pub(super) items: Vec<T>,
}

/// `metadata` of a list: where to watch from, and the next page's token.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageMeta {
    /// `metadata.resourceVersion` (set on the last page).
    #[serde(default)]
    pub(super) resource_version: Option<String>,
    /// `metadata.continue`: the next page's token; empty or absent on the last page.
    #[serde(default, rename = "continue")]
    pub(super) continue_: Option<String>,
}

fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}
