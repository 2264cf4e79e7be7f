//! A TRAM's fields as the CLI's JSON extras: every static field for `list --json`, the
//! per-frame ones for `sample --json`.

use super::{AttackBound, Tram};
use serde_json::{json, Map, Value};

impl Tram {
    /// Format string for `AnimInfo::format`.
    pub fn format(&self) -> String {
        // Without the formatting machinery (a CD's level lists thousands of TRAMs).
        let mut s = String::with_capacity(7);
        s.push_str("TRAM/");
        boneyard_core::text::push_decimal(&mut s, self.key_size.into(), 1);
        s
    }

    /// Every static field, for `list --json` (the per-frame ones are in [`frame_json`]).
    ///
    /// [`frame_json`]: Self::frame_json
    pub fn info_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_string(), v);
        };
        put("instance", json!(self.descriptor));
        put("sampling", json!("whole frames at 60 fps: a real frame is rounded down and clamped"));
        put("key_size", json!(self.key_size));
        put("fps_field", json!(self.fps));
        put("type", json!(self.kind));
        put("aiming_type", json!(self.aiming_type));
        put("from_state", json!(self.from_state));
        put("to_state", json!(self.to_state));
        put("duration", json!(self.duration));
        put("varient", json!(self.varient));
        put("varient_end", json!(self.varient_end));
        put("atomic", json!(self.atomic));
        put("end_interpolation", json!(self.interpolation[0]));
        put("max_interpolation", json!(self.interpolation[1]));
        put("action_frame", json!(self.action_frame));
        put("first_level", json!(self.first_level));
        put("invulnerable", json!({"start": self.invulnerable[0], "length": self.invulnerable[1]}));
        put("flags", json!(self.flags));
        put("direct_animations", json!(self.direct_animations));
        put("used_parts", json!(self.used_parts));
        put("replace_parts", json!(self.replace_parts));
        put("final_rotation", json!(self.final_rotation));
        put("move_direction", json!(self.move_direction));
        put("vocalization", json!(self.vocalization));
        put("hard_pause", json!(self.hard_pause));
        put("soft_pause", json!(self.soft_pause));
        put("attack_name", json!(self.attack_name));
        put(
            "extents",
            json!({
                "max_distance": self.ring_max_distance,
                "min_height": self.ring_min_height,
                "max_height": self.ring_max_height,
                "ring": self.ring.to_vec(),
                "longest_reach_angle": self.max_attack.angle,
                "first_attack": bound_json(&self.first_attack),
                "max_attack": bound_json(&self.max_attack),
                "computed_direction": self.computed_direction,
                "attack_points": self.attack_extents.iter().map(|e| json!({
                    "frame": e.frame,
                    "angle": e.angle as f64 * (std::f64::consts::TAU / 65535.0),
                    "angle_raw": e.angle,
                    "distance": e.distance as f64 * 0.01,
                    "min_height": e.min_height as f64 * 0.01,
                    "max_height": e.max_height as f64 * 0.01,
                })).collect::<Vec<_>>(),
            }),
        );
        // Per-frame arrays (heights, motion, position points) are in `sample --json`, one
        // frame at a time, so that `list --json` of a whole level stays small.
        put(
            "attacks",
            json!(self
                .attacks
                .iter()
                .map(|a| json!({
                    "damage_bits": a.damage_bits, "knockback": a.knockback, "flags": a.flags,
                    "damage": a.damage, "first_frame": a.first_frame, "last_frame": a.last_frame,
                    "damage_animation": a.damage_animation, "hit_stun": a.hit_stun,
                    "block_stun": a.block_stun, "stagger": a.stagger, "precedence": a.precedence,
                    "extent_index": a.extent_index,
                }))
                .collect::<Vec<_>>()),
        );
        put(
            "self_damage",
            json!(self.damages.iter().map(|d| json!({"damage": d[0], "frame": d[1]})).collect::<Vec<_>>()),
        );
        put(
            "blurs",
            json!(self
                .blurs
                .iter()
                .map(|x| json!({"parts": x.parts, "first_frame": x.first_frame, "last_frame": x.last_frame,
                    "lifetime": x.lifetime, "alpha": x.alpha, "interval": x.interval}))
                .collect::<Vec<_>>()),
        );
        put(
            "shortcuts",
            json!(self
                .shortcuts
                .iter()
                .map(|x| json!({"from_state": x[0], "length": x[1], "flags": x[2]}))
                .collect::<Vec<_>>()),
        );
        put(
            "throw",
            match &self.throw {
                Some(x) => json!({"offset": x.offset, "facing": x.facing, "distance": x.distance,
                    "victim_type": x.victim_type}),
                None => Value::Null,
            },
        );
        put(
            "footsteps",
            json!(self.footsteps.iter().map(|f| json!({"frame": f[0], "type": f[1]})).collect::<Vec<_>>()),
        );
        put(
            "particles",
            json!(self
                .particles
                .iter()
                .map(|p| json!({"start": p.start, "stop": p.stop, "part": p.part, "name": p.name}))
                .collect::<Vec<_>>()),
        );
        put("sounds", json!(self.sounds.iter().map(|(n, f)| json!({"name": n, "frame": f})).collect::<Vec<_>>()));
        put("has_position_points", json!(!self.positions.is_empty()));
        put("keys_per_part", json!(self.streams.iter().map(|s| s.keys).collect::<Vec<_>>()));
        m
    }

    /// Per-frame fields at `frame`, for `sample --json`.
    pub fn frame_json(&self, frame: usize) -> Map<String, Value> {
        let f = frame as u32;
        let mut m = Map::new();
        let pos = self.position(frame);
        m.insert("height".into(), json!(self.height(frame)));
        m.insert("velocity".into(), json!(self.velocities.get(frame).copied().unwrap_or([0.0, 0.0])));
        m.insert("position".into(), json!([pos[0], 0.0, pos[1]]));
        if let Some(p) = self.positions.get(frame) {
            m.insert(
                "position_point".into(),
                json!({"x": p.x as f64 * 0.01, "z": p.z as f64 * 0.01,
                    "toe_to_head": p.toe_to_head as f64 * 0.01, "floor_to_toe": p.floor_to_toe as f64 * 0.01}),
            );
        }
        let active: Vec<usize> = self
            .attacks
            .iter()
            .enumerate()
            .filter(|(_, a)| (a.first_frame as u32..=a.last_frame as u32).contains(&f))
            .map(|(i, _)| i)
            .collect();
        m.insert("attacks".into(), json!(active));
        let dmg: u32 = self.damages.iter().filter(|d| d[1] as u32 == f).map(|d| d[0] as u32).sum();
        m.insert("self_damage".into(), json!(dmg));
        let (s, l) = (self.invulnerable[0] as u32, self.invulnerable[1] as u32);
        m.insert("invulnerable".into(), json!(f >= s && f < s + l));
        m.insert("atomic".into(), json!(f >= self.atomic[0] as u32 && f <= self.atomic[1] as u32));
        m.insert(
            "footsteps".into(),
            json!(self.footsteps.iter().filter(|x| x[0] as u32 == f).map(|x| x[1]).collect::<Vec<_>>()),
        );
        m.insert(
            "sounds".into(),
            json!(self.sounds.iter().filter(|x| x.1 as u32 == f).map(|x| x.0.clone()).collect::<Vec<_>>()),
        );
        m.insert(
            "particles".into(),
            json!(self
                .particles
                .iter()
                .filter(|p| (p.start as u32..=p.stop as u32).contains(&f))
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()),
        );
        m.insert(
            "blurs".into(),
            json!(self
                .blurs
                .iter()
                .enumerate()
                .filter(|(_, b)| (b.first_frame as u32..=b.last_frame as u32).contains(&f))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()),
        );
        m
    }
}

fn bound_json(b: &AttackBound) -> Value {
    json!({"frame": b.frame, "attack_index": b.attack_index, "extent_index": b.extent_index,
        "position": b.position, "distance": b.distance, "min_height": b.min_height,
        "max_height": b.max_height, "angle": b.angle})
}
