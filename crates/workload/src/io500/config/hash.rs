//! The IO500 hashes (reference §4.4): the rotate-and-add `fold` behind the per-phase seeds,
//! `kv` pairs, and the config-hash over every option that has a value.

use super::schema::SECTIONS;

/// IO500's `u_hash_update`: for every byte `c` of `s`, `h = rotl32(h, 2) + c` (wrapping).
///
/// IO500 adds a C `char`, which is signed on x86-64 (where nearly every published run was
/// made), so bytes >= 0x80 are added sign-extended. ASCII text hashes the same either way.
pub fn fold(s: &str, h: u32) -> u32 {
    s.bytes()
        .fold(h, |h, c| h.rotate_left(2).wrapping_add(c as i8 as u32))
}

/// IO500's `u_hash_update_key_val`: `h ^ fold(value, fold(key, 0))`.
pub fn kv(h: u32, key: &str, value: &str) -> u32 {
    h ^ fold(value, fold(key, 0))
}

/// IO500's `u_ini_gen_hash`: XOR of `kv(name, value)` over every option of every section
/// whose value is set (defaults included, `""` included). Only the option's name is hashed,
/// as the schema spells it, so equal `name = value` pairs in an even number of sections cancel.
pub(super) fn config_hash(values: &[Vec<Option<String>>]) -> u32 {
    let mut h = 0;
    for (section, vals) in SECTIONS.iter().zip(values) {
        for (key, val) in section.keys.iter().zip(vals) {
            if let Some(v) = val {
                h = kv(h, key.name, v);
            }
        }
    }
    h
}
