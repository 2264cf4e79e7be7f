//! Animation banks: object files that hold animations and no skeleton, loaded by the game
//! beside the object whose skeleton plays them (`object_zl2_anime1` beside `object_zl2`). The
//! files do not name each other; the pairings are the actors' (zeldaret/oot: which objects an
//! actor asks for, and whose skeleton it plays each one's clips on).
//!
//! An owner read alone finds its banks beside it, so a folder walk writes each character with
//! every clip it has; a bank read alone names the files its skeleton is in.

/// One bank and the objects whose skeletons play its clips.
struct Bank {
    /// The bank's file name, as the decomp spells it.
    name: &'static str,
    /// Who plays it: the objects (decomp spelling) whose skeletons its clips are for.
    owners: Owners,
    /// The actors that load both (for messages).
    by: &'static str,
}

/// The objects a bank's clips play on.
enum Owners {
    /// These objects.
    Named(&'static [&'static str]),
    /// The beta townspeople's objects, `object_oA<n>`, `object_oB<n>` and `object_oE<n>` (with
    /// an `s` after the number in some): 38-limb beta skeletons, every one of which the beta
    /// scenes load with both `object_o_anime` and `object_oE_anime`.
    BetaTownspeople,
}

const BANKS: &[Bank] = &[
    Bank { name: "object_zl2_anime1", owners: Owners::Named(&["object_zl2"]), by: "En_Zl2 (adult Zelda)" },
    Bank { name: "object_zl2_anime2", owners: Owners::Named(&["object_zl2"]), by: "En_Zl2 (adult Zelda)" },
    Bank { name: "object_ganon_anime1", owners: Owners::Named(&["object_ganon"]), by: "Boss_Ganon (Ganondorf)" },
    Bank { name: "object_ganon_anime2", owners: Owners::Named(&["object_ganon"]), by: "Boss_Ganon (Ganondorf)" },
    Bank {
        name: "object_ganon_anime3",
        owners: Owners::Named(&["object_ganon"]),
        by: "Boss_Ganon2's opening (Ganondorf)",
    },
    Bank { name: "object_gm", owners: Owners::Named(&["object_oF1d_map"]), by: "En_Gm (Medigoron)" },
    Bank {
        name: "object_mastergolon",
        owners: Owners::Named(&["object_oF1d_map"]),
        by: "En_Ossan (the Goron shopkeeper)",
    },
    Bank {
        name: "object_masterkokiri",
        owners: Owners::Named(&["object_km1"]),
        by: "En_Ossan (the Kokiri shopkeeper)",
    },
    Bank { name: "object_masterzoora", owners: Owners::Named(&["object_zo"]), by: "En_Ossan (the Zora shopkeeper)" },
    Bank {
        name: "object_os_anime",
        owners: Owners::Named(&[
            "object_km1",
            "object_kw1",
            "object_aob",
            "object_ahg",
            "object_bba",
            "object_bji",
            "object_bob",
            "object_boj",
            "object_cne",
            "object_cob",
        ]),
        by: "En_Ko (the Kokiri) and En_Hy (the Hylian townspeople)",
    },
    Bank { name: "object_o_anime", owners: Owners::BetaTownspeople, by: "the beta townspeople (En_Npc)" },
    Bank { name: "object_oE_anime", owners: Owners::BetaTownspeople, by: "the beta townspeople (En_Npc)" },
];

/// `object_oA<n>`, `object_oB<n>`, `object_oE<n>`, each optionally followed by `s`, compared
/// without regard to case.
fn is_beta_townsperson(stem: &str) -> bool {
    let s = stem.to_ascii_lowercase();
    let Some(rest) = s.strip_prefix("object_o") else { return false };
    let Some(rest) = rest.strip_prefix(['a', 'b', 'e']) else { return false };
    let digits = rest.strip_suffix('s').unwrap_or(rest);
    !digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit())
}

impl Owners {
    fn has(&self, stem: &str) -> bool {
        match self {
            Owners::Named(names) => names.iter().any(|n| n.eq_ignore_ascii_case(stem)),
            Owners::BetaTownspeople => is_beta_townsperson(stem),
        }
    }

    fn describe(&self) -> String {
        match self {
            Owners::Named(names) => names.join(", "),
            Owners::BetaTownspeople => "the beta townspeople's objects (object_oA*, object_oB*, object_oE*)".into(),
        }
    }
}

/// The banks (decomp spelling) whose clips play on the skeleton of the object `stem` (compared
/// without regard to case), in the table's order.
pub fn banks_of(stem: &str) -> impl Iterator<Item = &'static str> + '_ {
    BANKS.iter().filter(move |b| b.owners.has(stem)).map(|b| b.name)
}

/// For a bank `stem`: which objects' skeletons play its clips, and which actors load them, in
/// words (`"object_zl2 (the game loads them together: En_Zl2 (adult Zelda))"`).
pub fn owners_of(stem: &str) -> Option<String> {
    let b = BANKS.iter().find(|b| b.name.eq_ignore_ascii_case(stem))?;
    Some(format!("{} (the game loads them together: {})", b.owners.describe(), b.by))
}

/// True when `bank` (a bank's stem) is played by the object `owner`.
pub fn plays_on(bank: &str, owner: &str) -> bool {
    BANKS.iter().any(|b| b.name.eq_ignore_ascii_case(bank) && b.owners.has(owner))
}

/// The file names a bank is looked for by beside its owner `owner_path`: with the owner's
/// extension when it has one (`object_zl2.zobj` finds `object_zl2_anime1.zobj`), then bare.
pub fn file_names(bank: &str, owner_ext: Option<&str>) -> Vec<String> {
    let mut v = Vec::with_capacity(2);
    if let Some(e) = owner_ext {
        v.push(format!("{bank}.{e}"));
    }
    v.push(bank.to_string());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_find_their_banks_and_banks_name_their_owners() {
        assert_eq!(banks_of("object_zl2").collect::<Vec<_>>(), ["object_zl2_anime1", "object_zl2_anime2"]);
        assert_eq!(banks_of("object_oe1").collect::<Vec<_>>(), ["object_o_anime", "object_oE_anime"]);
        assert_eq!(banks_of("object_oA10").count(), 2);
        assert_eq!(banks_of("object_oF1d_map").collect::<Vec<_>>(), ["object_gm", "object_mastergolon"]);
        assert_eq!(banks_of("object_km1").collect::<Vec<_>>(), ["object_masterkokiri", "object_os_anime"]);
        assert_eq!(banks_of("object_dekunuts").count(), 0);
        // Not townspeople: a longer name, no number, another letter.
        for s in ["object_oF1s", "object_oE_anime", "object_o_anime", "object_oa", "object_oe123", "object_ossan"] {
            assert!(!is_beta_townsperson(s), "{s}");
        }
        for s in ["object_oA1", "object_oB4", "object_oE12", "object_oE1s"] {
            assert!(is_beta_townsperson(s), "{s}");
        }
        assert!(owners_of("object_os_anime").unwrap().starts_with("object_km1, object_kw1, object_aob"));
        assert!(plays_on("object_os_anime", "object_ahg"));
        assert!(owners_of("object_zl2").is_none());
        assert!(plays_on("object_zl2_anime2", "object_zl2") && !plays_on("object_zl2_anime2", "object_ganon"));
        assert_eq!(file_names("object_gm", Some("zobj")), ["object_gm.zobj", "object_gm"]);
    }
}
