//! The usage sort keys (`C`, `M`, `X`, `Z`, `ctrl-x`, `ctrl-q`, as k9s binds them): which
//! [`UsageCol`] each sorts by and where it applies — pods lists for all six, nodes lists for
//! MEM, %CPU and %MEM (`C` cordons a node; nodes have no limits), and only while the list
//! shows its usage columns. Owns that rule; must not change state (`update` sorts).

use crate::app::list::model::{ListState, UsageCol};
use crate::app::state::UiState;
use crate::keys::Action;
use crate::kube::metrics::Target;

/// The usage column `action` sorts by; `None` for every other action.
pub fn sort_of(action: Action) -> Option<UsageCol> {
    Some(match action {
        Action::SortCpu => UsageCol::Cpu,
        Action::SortMem => UsageCol::Mem,
        Action::SortCpuPct => UsageCol::CpuPct,
        Action::SortMemPct => UsageCol::MemPct,
        Action::SortCpuLimitPct => UsageCol::CpuLimitPct,
        Action::SortMemLimitPct => UsageCol::MemLimitPct,
        _ => return None,
    })
}

/// `Some(applies)` for the usage sort actions (see [`sorts`]), `None` for the others.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    let col = sort_of(action)?;
    Some(state.top_list().is_some_and(|l| sorts(l, col)))
}

/// Whether list `l` can sort by `col`: a pods or nodes list showing its usage columns, and
/// a column that list has.
pub fn sorts(l: &ListState, col: UsageCol) -> bool {
    let Some(target) = super::model::target_of(l.kind()) else {
        return false;
    };
    let shown = l.usage.is_some()
        && l.cache
            .metrics()
            .is_some_and(|m| super::compute::shows_columns(m));
    shown
        && match target {
            Target::Pods => true,
            Target::Nodes => matches!(col, UsageCol::Mem | UsageCol::CpuPct | UsageCol::MemPct),
        }
}

#[cfg(test)]
mod tests;
