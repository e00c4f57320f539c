//! Hash maps keyed by one 64-bit word (a packed position), for the tables that grow with the
//! positions a learner meets and for a solver's table: open addressing with linear probing from a
//! multiplicative hash, the key and its value side by side, so a lookup usually reads one cache
//! line (a general hash map reads two: its control bytes, then its entries) — these tables are far
//! bigger than any cache.

/// What a table slot holds: a key (a packed position) and its value, and a mark for empty.
trait Slot: Copy {
    /// An empty slot.
    fn empty() -> Self;
    fn is_empty(self) -> bool;
    fn key(self) -> u64;
}

/// Open addressing with linear probing from a multiplicative hash, slots of one kind.
#[derive(Clone, Debug)]
struct Slots<S> {
    slots: Vec<S>,
    len: usize,
}

impl<S: Slot> Slots<S> {
    const fn new() -> Self {
        Slots {
            slots: Vec::new(),
            len: 0,
        }
    }

    /// The slot to try first for `key`.
    #[inline]
    fn home(&self, key: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The slot holding `key`, if any.
    #[inline]
    fn get(&self, key: u64) -> Option<S> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot.is_empty() {
                return None;
            }
            if slot.key() == key {
                return Some(slot);
            }
            i = (i + 1) & mask;
        }
    }

    /// Reads `key`'s first slot and drops it: a load with no branch on what it finds, so the
    /// loads of many keys made back to back are all under way at once (each a likely cache miss
    /// in a big table) before the lookups that branch on them.
    #[inline]
    fn touch(&self, key: u64) {
        if !self.slots.is_empty() {
            std::hint::black_box(self.slots[self.home(key)]);
        }
    }

    /// Puts `slot` in its key's place (replacing the key's old slot); whether the key is new.
    fn insert(&mut self, slot: S) -> bool {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let new = self.put(slot);
        self.len += usize::from(new);
        new
    }

    fn put(&mut self, slot: S) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.key());
        loop {
            let old = self.slots[i];
            if old.is_empty() || old.key() == slot.key() {
                self.slots[i] = slot;
                return old.is_empty();
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![S::empty(); size]);
        for slot in old.into_iter().filter(|s| !s.is_empty()) {
            self.put(slot);
        }
    }
}

/// The key that marks an empty slot of a [`WordMap`]; an entry under it is kept beside the slots.
const EMPTY: u64 = u64::MAX;

impl<V: Copy + Default> Slot for (u64, V) {
    fn empty() -> Self {
        (EMPTY, V::default())
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == EMPTY
    }
    #[inline]
    fn key(self) -> u64 {
        self.0
    }
}

/// A map from 64-bit words to small values.
#[derive(Clone, Debug)]
pub struct WordMap<V: Copy + Default> {
    slots: Slots<(u64, V)>,
    /// The value under the key [`EMPTY`], if any.
    last: Option<V>,
}

impl<V: Copy + Default> Default for WordMap<V> {
    fn default() -> Self {
        WordMap {
            slots: Slots::new(),
            last: None,
        }
    }
}

impl<V: Copy + Default> WordMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.slots.len + usize::from(self.last.is_some())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes a slot takes; the table keeps between 4/3 and 8/3 slots an entry.
    pub fn slot_bytes() -> usize {
        std::mem::size_of::<(u64, V)>()
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<V> {
        if key == EMPTY {
            return self.last;
        }
        self.slots.get(key).map(|(_, v)| v)
    }

    /// Sets `key`'s value; whether the key is new.
    pub fn insert(&mut self, key: u64, value: V) -> bool {
        if key == EMPTY {
            return self.last.replace(value).is_none();
        }
        self.slots.insert((key, value))
    }
}

/// A slot of [`Outcomes`]: the key above two bits holding the value plus 2 (0: empty).
#[derive(Clone, Copy, Debug)]
struct Packed(u64);

impl Slot for Packed {
    fn empty() -> Self {
        Packed(0)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    fn key(self) -> u64 {
        self.0 >> 2
    }
}

/// Win (1), draw (0) or loss (−1) by packed position, key and value in one word a slot: half the
/// memory of a [`WordMap`], for a solver's table of many millions. Keys must be below 2⁶².
#[derive(Clone, Debug)]
pub struct Outcomes {
    slots: Slots<Packed>,
}

impl Default for Outcomes {
    fn default() -> Self {
        Outcomes {
            slots: Slots::new(),
        }
    }
}

impl Outcomes {
    pub fn len(&self) -> usize {
        self.slots.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<i8> {
        self.slots.get(key).map(|s| (s.0 & 3) as i8 - 2)
    }

    /// Starts the read of `key`'s slot, for a lookup soon after ([`Slots::touch`]).
    #[inline]
    pub fn touch(&self, key: u64) {
        self.slots.touch(key);
    }

    /// Records `key`'s value (−1, 0 or 1; `key` below 2⁶²).
    pub fn insert(&mut self, key: u64, value: i8) {
        debug_assert!(key < 1 << 62 && (-1..=1).contains(&value));
        self.slots.insert(Packed(key << 2 | (value + 2) as u64));
    }
}

#[cfg(test)]
mod tests {
    use super::WordMap;

    /// Against the standard map, through growth, replaced values and the reserved key.
    #[test]
    fn agrees_with_a_hash_map() {
        let mut ours = WordMap::new();
        let mut std = std::collections::HashMap::new();
        let mut x = 12345u64;
        for i in 0..20_000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Keys from a small range repeat (replacing values); some are the reserved word.
            let key = match i % 7 {
                0 => u64::MAX,
                1 => x % 500,
                _ => x,
            };
            assert_eq!(ours.insert(key, i), std.insert(key, i).is_none());
            assert_eq!(ours.len(), std.len());
        }
        for (&k, &v) in &std {
            assert_eq!(ours.get(k), Some(v));
        }
        assert_eq!(ours.get(7_777_777), std.get(&7_777_777).copied());
        assert!(WordMap::<u32>::new().get(u64::MAX).is_none());
    }

    /// Values packed beside their keys come back as stored, replaced ones too.
    #[test]
    fn outcomes_keep_each_value() {
        let mut table = super::Outcomes::default();
        let mut std = std::collections::HashMap::new();
        for k in 0..10_000u64 {
            let key = k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 3;
            let value = (k % 3) as i8 - 1;
            table.insert(key, value);
            std.insert(key, value);
        }
        table.insert(0, 1);
        std.insert(0, 1);
        assert_eq!(table.len(), std.len());
        for (&k, &v) in &std {
            assert_eq!(table.get(k), Some(v));
        }
        assert_eq!(table.get(1 << 61), None);
    }
}
