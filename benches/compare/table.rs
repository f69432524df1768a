//! The benchmark's one table: a row per figure, a column per tool with its ratio to ktui,
//! and `n/a (why)` where a figure does not apply. Formatting only; must not measure.

use crate::churn::Churn;
use crate::measure::{missed_cell, sample_cell, show, value, Cell, Quiet};
use crate::tools::Tool;

/// All figures of one tool at one size.
pub struct Column {
    pub tool: Tool,
    pub quiet: Quiet,
    pub churn: Churn,
}

/// The rows: label and how to get the cell out of a column.
type Row = (&'static str, fn(&Column) -> Cell);

const ROWS: &[Row] = &[
    ("launch → first row", |c| c.quiet.first_row.clone()),
    ("launch → full count", |c| c.quiet.full.clone()),
    ("CPU per pod, launch → full count", |c| c.quiet.sync_cpu.clone()),
    ("get pods -A -o json > /dev/null", |c| c.quiet.json_list.clone()),
    ("RSS after sync", |c| c.quiet.rss.clone()),
    ("peak RSS after sync", |c| c.quiet.peak.clone()),
    ("CPU, idle", |c| c.quiet.cpu_idle.clone()),
    ("CPU, 1,000 changes/s", |c| c.churn.cpu.clone()),
    ("render loop's CPU, 1,000 changes/s", |c| c.churn.render.clone()),
    ("created → screen p50", |c| sample_cell(&c.quiet.created, 0.5)),
    ("created → screen p90", |c| sample_cell(&c.quiet.created, 0.9)),
    ("created → screen max", |c| sample_cell(&c.quiet.created, 2.0)),
    ("created, not shown in 10 s", |c| missed_cell(&c.quiet.created)),
    ("deleted → screen p50", |c| sample_cell(&c.quiet.deleted, 0.5)),
    ("deleted → screen p90", |c| sample_cell(&c.quiet.deleted, 0.9)),
    ("deleted → screen max", |c| sample_cell(&c.quiet.deleted, 2.0)),
    ("deleted, not shown in 10 s", |c| missed_cell(&c.quiet.deleted)),
    ("filter keystroke → screen", |c| c.quiet.filter.clone()),
    ("keystroke → screen p50, 1,000 changes/s", |c| {
        sample_cell(&c.churn.keys, 0.5)
    }),
    ("keystroke → screen p90, 1,000 changes/s", |c| {
        sample_cell(&c.churn.keys, 0.9)
    }),
    ("keystroke → screen p99, 1,000 changes/s", |c| {
        sample_cell(&c.churn.keys, 0.99)
    }),
    ("keystroke → screen max, 1,000 changes/s", |c| {
        sample_cell(&c.churn.keys, 2.0)
    }),
    ("keystrokes not shown in 10 s", |c| missed_cell(&c.churn.keys)),
    ("RSS, pods + nodes + events views warm", |c| {
        c.quiet.rss_warm.clone()
    }),
    ("ctrl-c → terminal restored", |c| c.quiet.restored.clone()),
    ("ctrl-c → process gone", |c| c.quiet.quit.clone()),
];

/// Prints the table (Markdown) for one size; the first column is the reference for ratios.
pub fn print(title: &str, cols: &[Column]) {
    println!("\n{title}\n");
    let mut head = String::from("| figure |");
    let mut rule = String::from("|---|");
    for (i, c) in cols.iter().enumerate() {
        head.push_str(&format!(" {} |", c.tool.name()));
        rule.push_str("---:|");
        if i > 0 {
            head.push_str(&format!(" {} ÷ ktui |", c.tool.name()));
            rule.push_str("---:|");
        }
    }
    println!("{head}\n{rule}");
    for (label, get) in ROWS {
        let cells: Vec<Cell> = cols.iter().map(get).collect();
        let base = cells.first().and_then(value);
        let mut line = format!("| {label} |");
        for (i, c) in cells.iter().enumerate() {
            line.push_str(&format!(" {} |", show(c)));
            if i > 0 {
                let ratio = match (value(c), base) {
                    (Some(v), Some(b)) if b > 0.0 => format!("{:.1}×", v / b),
                    _ => "—".to_owned(),
                };
                line.push_str(&format!(" {ratio} |"));
            }
        }
        println!("{line}");
    }
}
