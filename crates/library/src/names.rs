//! A player's names as a player looks them up: part of a name, case and
//! accents ignored (`unger` finds `Kévin Unger`), a rating suffix not part
//! of the name (FIBS's `nori,1723` is `nori`), and names grouped as one
//! person (`library alias NAME --as PERSON`). Pure: the store keeps the
//! aliases, this finds who a query means.

use std::collections::BTreeMap;

/// A name as written, without a rating suffix (`nori,1723`, `nori (1723)`)
/// and surrounding spaces.
pub fn without_rating(name: &str) -> &str {
    let t = name.trim();
    let digits_end = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.');
    if let Some((head, tail)) = t.rsplit_once(',')
        && digits_end(tail.trim())
        && !head.trim().is_empty()
    {
        return head.trim_end();
    }
    if let Some(head) = t.strip_suffix(')')
        && let Some((head, tail)) = head.rsplit_once('(')
        && digits_end(tail.trim())
        && !head.trim().is_empty()
    {
        return head.trim_end();
    }
    t
}

/// A name as compared: without its rating, lower case, accents taken off
/// the Latin letters (`Kévin UNGER` is `kevin unger`), runs of spaces one.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in without_rating(name).chars() {
        if c.is_whitespace() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            continue;
        }
        match plain(c) {
            Some(p) => out.push_str(p),
            None => out.extend(c.to_lowercase()),
        }
    }
    out.trim_end().to_owned()
}

/// The plain lower-case letters of an accented Latin letter.
fn plain(c: char) -> Option<&'static str> {
    const TABLE: &[(&str, &str)] = &[
        ("àáâãäåāăą", "a"),
        ("ÀÁÂÃÄÅĀĂĄ", "a"),
        ("çćĉċč", "c"),
        ("ÇĆĈĊČ", "c"),
        ("ďđð", "d"),
        ("ĎĐÐ", "d"),
        ("èéêëēĕėęě", "e"),
        ("ÈÉÊËĒĔĖĘĚ", "e"),
        ("ĝğġģ", "g"),
        ("ĜĞĠĢ", "g"),
        ("ĥħ", "h"),
        ("ĤĦ", "h"),
        ("ìíîïĩīĭįı", "i"),
        ("ÌÍÎÏĨĪĬĮİ", "i"),
        ("ĵ", "j"),
        ("Ĵ", "j"),
        ("ķ", "k"),
        ("Ķ", "k"),
        ("ĺļľŀł", "l"),
        ("ĹĻĽĿŁ", "l"),
        ("ñńņňŉ", "n"),
        ("ÑŃŅŇ", "n"),
        ("òóôõöøōŏő", "o"),
        ("ÒÓÔÕÖØŌŎŐ", "o"),
        ("ŕŗř", "r"),
        ("ŔŖŘ", "r"),
        ("śŝşšș", "s"),
        ("ŚŜŞŠȘ", "s"),
        ("ţťŧț", "t"),
        ("ŢŤŦȚ", "t"),
        ("ùúûüũūŭůűų", "u"),
        ("ÙÚÛÜŨŪŬŮŰŲ", "u"),
        ("ŵ", "w"),
        ("Ŵ", "w"),
        ("ýÿŷ", "y"),
        ("ÝŸŶ", "y"),
        ("źżž", "z"),
        ("ŹŻŽ", "z"),
        ("æ", "ae"),
        ("Æ", "ae"),
        ("œ", "oe"),
        ("Œ", "oe"),
        ("ß", "ss"),
        ("þ", "th"),
        ("Þ", "th"),
    ];
    if c.is_ascii() {
        return None;
    }
    TABLE
        .iter()
        .find(|(from, _)| from.contains(c))
        .map(|(_, to)| *to)
}

/// A person: the name shown, and every name (folded) of theirs in the
/// library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub name: String,
    pub names: Vec<String>,
}

impl Person {
    /// Whether a match player named `name` (as written) is this person.
    pub fn is(&self, name: &str) -> bool {
        let f = fold(name);
        self.names.contains(&f)
    }
}

/// Who a query meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    One(Person),
    /// Several people's names hold the query: each, to choose from.
    Several(Vec<Person>),
    None,
}

/// The people of the library: each name of a match (as written) grouped
/// by the aliases (`(folded name, person)`), the rest each their own
/// person under the name as first written (without its rating).
pub fn people<'a>(
    names: impl IntoIterator<Item = &'a str>,
    aliases: &[(String, String)],
) -> Vec<Person> {
    let alias: BTreeMap<&str, &str> = aliases
        .iter()
        .map(|(n, p)| (n.as_str(), p.as_str()))
        .collect();
    let mut by_person: BTreeMap<String, Person> = BTreeMap::new();
    for name in names {
        let folded = fold(name);
        if folded.is_empty() {
            continue;
        }
        let aliased = alias.get(folded.as_str());
        let shown = aliased.map_or_else(|| without_rating(name).to_owned(), |p| (*p).to_owned());
        let p = by_person.entry(fold(&shown)).or_insert_with(|| Person {
            name: shown.clone(),
            names: Vec::new(),
        });
        // The person's name as the alias writes it.
        if aliased.is_some() {
            p.name = shown;
        }
        if !p.names.contains(&folded) {
            p.names.push(folded);
        }
    }
    // A person named in an alias counts their own name too.
    for p in by_person.values_mut() {
        let own = fold(&p.name);
        if !p.names.contains(&own) {
            p.names.push(own);
        }
    }
    by_person.into_values().collect()
}

/// Who `query` means among `people`: the person whose name, or one of
/// whose names, is the query (folded) exactly; else the people with a
/// name that holds it; one is found, several are to choose from.
pub fn find(query: &str, people: &[Person]) -> Found {
    let q = fold(query);
    if q.is_empty() {
        return Found::None;
    }
    let exact: Vec<&Person> = people
        .iter()
        .filter(|p| fold(&p.name) == q || p.names.contains(&q))
        .collect();
    let found: Vec<&Person> = if exact.is_empty() {
        people
            .iter()
            .filter(|p| fold(&p.name).contains(&q) || p.names.iter().any(|n| n.contains(&q)))
            .collect()
    } else {
        exact
    };
    match found.as_slice() {
        [] => Found::None,
        [one] => Found::One((*one).clone()),
        many => Found::Several(many.iter().map(|p| (*p).clone()).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fold_case_accents_and_ratings() {
        assert_eq!(fold("Kévin UNGER"), "kevin unger");
        assert_eq!(fold("  nori,1723 "), "nori");
        assert_eq!(fold("nori (1835.2)"), "nori");
        assert_eq!(fold("Søren  Jørgensen"), "soren jorgensen");
        assert_eq!(fold("X,Y"), "x,y");
        assert_eq!(without_rating("dinaraz,1735"), "dinaraz");
        assert_eq!(without_rating(",1735"), ",1735");
    }

    #[test]
    fn a_part_of_a_name_finds_its_person() {
        let all = people(
            [
                "Kévin Unger",
                "Maxence Job",
                "nori,1723",
                "nori,1835",
                "dinaraz,1735",
            ],
            &[],
        );
        let one = |q: &str| match find(q, &all) {
            Found::One(p) => p.name,
            other => panic!("{q}: {other:?}"),
        };
        assert_eq!(one("unger"), "Kévin Unger");
        assert_eq!(one("Kévin"), "Kévin Unger");
        assert_eq!(one("KEVIN UNGER"), "Kévin Unger");
        assert_eq!(one("nori"), "nori");
        assert!(matches!(find("zzz", &all), Found::None));
        // `n` is in nori's, dinaraz's, Unger's and Maxence's names.
        let Found::Several(many) = find("n", &all) else {
            panic!("n is ambiguous")
        };
        assert_eq!(many.len(), 4);
    }

    #[test]
    fn aliases_group_names_as_one_person() {
        let aliases = vec![
            ("bgnori".to_owned(), "nori".to_owned()),
            (
                "kevin unger nicolas harmand".to_owned(),
                "Kévin Unger".to_owned(),
            ),
        ];
        let all = people(
            [
                "nori,1723",
                "bgnori",
                "Kévin UNGER Nicolas HARMAND",
                "Kévin Unger",
            ],
            &aliases,
        );
        assert_eq!(all.len(), 2);
        let Found::One(nori) = find("nori", &all) else {
            panic!("nori")
        };
        assert!(nori.is("bgnori") && nori.is("nori,1723") && !nori.is("dinaraz"));
        let Found::One(kevin) = find("unger", &all) else {
            panic!("unger")
        };
        assert!(kevin.is("Kévin UNGER Nicolas HARMAND"));
    }
}
