//! `appdeck completions SHELL` and `appdeck man`: generated from the clap definition, so they
//! always match the commands and flags of this very binary (tested by running the binary, in
//! tests/cli/cli_messages.rs).

use std::io::Write;

use clap::ValueHint;
use clap_complete::Shell;

use super::Failure;
use super::args::{self, GlobalArgs, NameKind};
use crate::api::Operation;

/// The commands whose argument is a file (or `-`): completion offers files there.
const FILE_COMMANDS: [&str; 4] = ["report", "connect", "validate", "diff"];

/// Writes the completion script for `shell`.
pub fn completions(shell: Shell, out: &mut impl Write) -> Result<(), Failure> {
    let mut command = files_only_for_paths(args::command(), shell);
    let name = command.get_name().to_owned();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    let text = hide_complete_names(&String::from_utf8_lossy(&script));
    let script = match shell {
        Shell::Bash => bash_offers_names(&bash_offers_files(&text, &FILE_COMMANDS)),
        Shell::Zsh => zsh_offers_names(&text),
        Shell::Fish => fish_offers_names(&text),
        _ => text,
    };
    out.write_all(script.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Completion offers files for a value only where it is a path: clap_complete offers them for any
/// value it is told nothing about (`--limit`, `--jq`, `--listen`...), and bash for a URL too
/// (`--base-url`; zsh completes URLs). A `PathBuf` value is a path to clap already (once built);
/// a flag with possible values offers those.
fn files_only_for_paths(command: clap::Command, shell: Shell) -> clap::Command {
    command
        .mut_args(|arg| {
            let is_path = arg.get_value_parser().type_id()
                == clap::builder::ValueParser::path_buf().type_id();
            let hint = arg.get_value_hint();
            let unknown =
                hint == ValueHint::Unknown || (hint == ValueHint::Url && shell == Shell::Bash);
            if arg.get_action().takes_values() && !is_path && unknown {
                arg.value_hint(ValueHint::Other)
            } else {
                arg
            }
        })
        .mut_subcommands(|sub| files_only_for_paths(sub, shell))
}

/// clap_complete's bash script offers a command's flags where its file argument goes (`appdeck
/// report <TAB>` listed `--output --curl ...`): in those commands' blocks, flags are offered after
/// a `-` only, and files otherwise.
fn bash_offers_files(script: &str, commands: &[&str]) -> String {
    let mut out = String::with_capacity(script.len());
    let mut in_file_command = false;
    for line in script.lines() {
        if let Some(block) = line
            .trim()
            .strip_prefix("appdeck__subcmd__")
            .and_then(|b| b.strip_suffix(')'))
        {
            in_file_command = commands.contains(&block);
        }
        let trimmed = line.trim();
        let replaced = if !in_file_command {
            None
        } else if trimmed.starts_with("if [[ ${cur} == -* || ${COMP_CWORD} -eq ") {
            Some(line.replace(trimmed, "if [[ ${cur} == -* ]] ; then"))
        } else if trimmed == "COMPREPLY=( $(compgen -W \"${opts}\" -- \"${cur}\") )"
            && !line.starts_with("                ")
        {
            Some(line.replace(trimmed, "COMPREPLY=( $(compgen -f -- \"${cur}\") )"))
        } else {
            None
        };
        out.push_str(replaced.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The names `appdeck complete-names KIND` prints: what a script asks for at each TAB, so that
/// the types, profiles and operations offered are those of now.
pub fn names(kind: NameKind, global: &GlobalArgs, out: &mut impl Write) -> Result<(), Failure> {
    let names: Vec<String> = match kind {
        NameKind::Types => {
            let sources = super::types::sources(global, false)?;
            crate::catalog::load(&sources)
                .catalog
                .types()
                .iter()
                .map(|t| t.name.clone())
                .collect()
        }
        NameKind::Profiles => crate::config::load(&global.flags())?.profile_names,
        NameKind::Operations => [
            Operation::ResourcesList,
            Operation::OperationsReport,
            Operation::VersionConnect,
        ]
        .map(|o| o.path().to_owned())
        .to_vec(),
    };
    for name in names {
        // One a line, nothing a shell would take for more than a word.
        if !name.is_empty() && !name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            writeln!(out, "{name}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// clap_complete offers hidden commands too: `complete-names` is the scripts' own, not a user's.
fn hide_complete_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    for line in script.lines() {
        let trimmed = line.trim_start();
        if line.contains("-a \"complete-names\"") || trimmed.starts_with("'complete-names:") {
            continue;
        }
        if trimmed.starts_with("opts=") {
            out.push_str(&line.replace(" complete-names ", " "));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The command a script runs for the names of `kind`, its errors silenced.
fn names_of(kind: &str) -> String {
    format!("appdeck complete-names {kind} 2>/dev/null")
}

/// Which names a flag's value is: `--type` a type's, `--profile` a profile's.
fn kind_of_flag(flag: &str) -> Option<&'static str> {
    match flag {
        "--type" | "-t" => Some("types"),
        "--profile" => Some("profiles"),
        _ => None,
    }
}

/// bash: `--type`, `-t` and `--profile` offer the names of now, and `api`'s first word the
/// operations (clap_complete offered nothing there).
fn bash_offers_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    let mut lines = script.lines().peekable();
    let mut in_api = false;
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if let Some(block) = trimmed
            .strip_prefix("appdeck__subcmd__")
            .and_then(|b| b.strip_suffix(')'))
        {
            in_api = block == "api";
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        if in_api && trimmed.starts_with("if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]]") {
            out.push_str(&format!(
                "{indent}if [[ ${{cur}} != -* && ${{COMP_CWORD}} -eq 2 ]] ; then\n{indent}    \
                 COMPREPLY=( $(compgen -W \"$({})\" -- \"${{cur}}\") )\n{indent}    return 0\n\
                 {indent}fi\n",
                names_of("operations")
            ));
        }
        out.push_str(line);
        out.push('\n');
        let Some(kind) = trimmed.strip_suffix(')').and_then(kind_of_flag) else {
            continue;
        };
        // The value's block: `COMPREPLY=("${cur}")`, then `compopt -o nospace` in an `if`.
        if lines
            .peek()
            .is_some_and(|l| l.trim() == "COMPREPLY=(\"${cur}\")")
        {
            let value = lines.next().unwrap_or_default();
            let indent = &value[..value.len() - value.trim_start().len()];
            out.push_str(&format!(
                "{indent}COMPREPLY=( $(compgen -W \"$({})\" -- \"${{cur}}\") )\n",
                names_of(kind)
            ));
            if lines
                .peek()
                .is_some_and(|l| l.trim().starts_with("if [[ \"${BASH_VERSINFO[0]}\""))
            {
                // Names end where they end: no `nospace`.
                lines.next();
                lines.next();
                lines.next();
            }
        }
    }
    out
}

/// zsh: `--type`, `-t` and `--profile` offer the names of now, and `api`'s operation the
/// operations.
fn zsh_offers_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    for line in script.lines() {
        let trimmed = line.trim_start();
        let kind = if trimmed.starts_with("'--type=[") || trimmed.starts_with("'-t+[") {
            Some(("TYPE", "types"))
        } else if trimmed.starts_with("'--profile=[") {
            Some(("NAME", "profiles"))
        } else if trimmed.starts_with("':operation -- ") {
            Some(("", "operations"))
        } else {
            None
        };
        // A flag's spec ends `:VALUE:' \`, a positional's `:' \`: the action goes last.
        let offered = kind.and_then(|(value, kind)| {
            let value = match value {
                "" => String::new(),
                value => format!(":{value}"),
            };
            let start = line.strip_suffix(&format!("{value}:' \\"))?;
            Some(format!(
                "{start}{value}:{{compadd -- $({})}}' \\",
                names_of(kind)
            ))
        });
        out.push_str(offered.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// fish: `--type`, `-t` and `--profile` offer the names of now, and `api` the operations.
fn fish_offers_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    for line in script.lines() {
        out.push_str(line);
        let kind = if line.contains(" -l type ") {
            Some("types")
        } else if line.contains(" -l profile ") {
            Some("profiles")
        } else {
            None
        };
        if let Some(kind) = kind
            && line.ends_with(" -r -f")
        {
            out.push_str(&format!(" -a \"({})\"", names_of(kind)));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "complete -c appdeck -n \"__fish_appdeck_using_subcommand api\" -f -a \"({})\"\n",
        names_of("operations")
    ));
    out
}

/// Writes the manual page, in roff: one page holding every command with its synopsis, flags and
/// examples (`appdeck man > appdeck.1` installs all of it, so it points at no other page), and
/// generic paths under FILES rather than those of whoever generated it.
pub fn man_page(out: &mut impl Write) -> Result<(), Failure> {
    let mut root = args::command().after_help(args::after_help_generic());
    root.build();
    let man = clap_mangen::Man::new(root.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend_from_slice(b".SH COMMANDS\n");
    for command in documented(&root) {
        command_section(command, &mut page)?;
    }
    page.extend_from_slice(b".SH \"EXIT STATUS, ENVIRONMENT AND FILES\"\n");
    let details = strip_section_heading(&render(&man, clap_mangen::Man::render_extra_section)?);
    page.extend_from_slice(details.as_bytes());
    man.render_version_section(&mut page)?;
    out.write_all(&page)?;
    out.flush()?;
    Ok(())
}

/// One command (and its own subcommands) as a subsection: `.SS appdeck list`, what it does, its
/// synopsis, its flags by heading, and its examples.
fn command_section(command: &clap::Command, page: &mut Vec<u8>) -> Result<(), Failure> {
    let name = command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_owned();
    let man = clap_mangen::Man::new(command.clone());
    page.extend_from_slice(format!(".SS \"{}\"\n", name.replace('"', "")).as_bytes());
    let about = strip_section_heading(&render(&man, clap_mangen::Man::render_description_section)?);
    page.extend_from_slice(about.as_bytes());
    let synopsis = render(&man, clap_mangen::Man::render_synopsis_section)?;
    page.extend_from_slice(demote_headings(&synopsis).as_bytes());
    let has_flags = command.get_arguments().any(|a| !a.is_hide_set());
    if has_flags {
        let options = render(&man, clap_mangen::Man::render_options_section)?;
        page.extend_from_slice(demote_headings(&options).as_bytes());
    }
    if command.get_after_help().is_some() {
        let extra = strip_section_heading(&render(&man, clap_mangen::Man::render_extra_section)?);
        page.extend_from_slice(b".PP\n");
        page.extend_from_slice(extra.as_bytes());
    }
    for sub in documented(command) {
        command_section(sub, page)?;
    }
    Ok(())
}

/// The subcommands the page documents: not the hidden ones, nor clap's `help` (at every level
/// it repeats the page's own sections: 35 of them, down to `appdeck types help help`).
fn documented(command: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    command
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
}

fn render(
    man: &clap_mangen::Man,
    section: fn(&clap_mangen::Man, &mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<String> {
    let mut text = Vec::new();
    section(man, &mut text)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// A section's body without its `.SH` line.
fn strip_section_heading(roff: &str) -> String {
    roff.lines()
        .filter(|line| !line.starts_with(".SH "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// Inside a command's subsection, a section heading (`.SH OPTIONS`) becomes a bold paragraph
/// title, so that the page's sections stay NAME, SYNOPSIS, ..., COMMANDS.
fn demote_headings(roff: &str) -> String {
    roff.lines()
        .map(|line| match line.strip_prefix(".SH ") {
            Some(heading) => {
                let heading = heading.trim_matches('"').to_lowercase();
                let mut title = heading.chars();
                let title = title
                    .next()
                    .map(|c| c.to_uppercase().chain(title).collect::<String>())
                    .unwrap_or_default();
                format!(".PP\n\\fB{title}:\\fR\n")
            }
            None => format!("{line}\n"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20 item 12: every command's flags are on the one page, which names no other page
    /// and no generating user's home.
    #[test]
    fn the_man_page_holds_every_command_and_flag_and_points_nowhere_else() {
        let mut out = Vec::new();
        man_page(&mut out).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert!(
            !page.contains("appdeck-list(1)"),
            "a page that does not exist"
        );
        assert!(!page.contains("(1)"), "no page is referenced");
        for section in [
            ".SS \"appdeck list\"",
            ".SS \"appdeck types show\"",
            ".SS \"appdeck history show\"",
        ] {
            assert!(page.contains(section), "no {section}");
        }
        for flag in [
            "\\-\\-allow\\-breaking",
            "\\-\\-curl",
            "\\-\\-header\\-timeout",
            "\\-\\-app\\-version",
        ] {
            assert!(page.contains(flag), "no {flag}");
        }
        if let Some(home) = std::env::var_os("HOME").filter(|h| h.len() > 1) {
            let home = home.to_string_lossy().replace('-', "\\-");
            assert!(
                !page.contains(&home),
                "the generating user's home {home} is on the page"
            );
        }
        assert!(
            page.contains("~/.config/appdeck/config.toml"),
            "generic paths"
        );
        let helps: Vec<&str> = (page.lines())
            .filter(|l| l.starts_with(".SS") && l.contains(" help"))
            .collect();
        assert!(helps.is_empty(), "clap's help commands: {helps:?}");
        assert_eq!(page.matches(".SH ").count(), page.matches(".SH ").count());
        let sections: Vec<&str> = page.lines().filter(|l| l.starts_with(".SH ")).collect();
        assert_eq!(
            sections,
            [
                ".SH NAME",
                ".SH SYNOPSIS",
                ".SH DESCRIPTION",
                ".SH OPTIONS",
                ".SH CONNECTION",
                ".SH CONFIGURATION",
                ".SH COMMANDS",
                ".SH \"EXIT STATUS, ENVIRONMENT AND FILES\"",
                ".SH VERSION",
            ]
        );
    }
}
