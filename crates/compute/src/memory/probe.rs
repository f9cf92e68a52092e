//! What the machine and its container leave: `MemAvailable` and the control groups' limits.

use std::path::{Path, PathBuf};

/// What is left under the limits of the control groups this process is in, from the files of
/// `/proc/self` (`None` where there is no limit or no such file).
pub(super) fn container_available() -> Option<u64> {
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    match (read(Path::new("/proc/self/mountinfo")), read(Path::new("/proc/self/cgroup"))) {
        (Some(mounts), Some(groups)) => cgroup_available(&mounts, &groups, read),
        _ => None,
    }
}

/// `MemAvailable` from `/proc/meminfo`, or `None` where there is no such file.
pub(super) fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What is left under the memory limits of the control groups this process is in and of their
/// ancestors (cgroup v2, and v1's memory controller), from `/proc/self/mountinfo` (`mounts`),
/// `/proc/self/cgroup` (`groups`) and the files `read` returns: the least over the groups of
/// limit − (usage − inactive file pages, which the kernel reclaims before it kills). `None`
/// when no group has a limit.
fn cgroup_available(
    mounts: &str,
    groups: &str,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<u64> {
    let number =
        |dir: &Path, file: &str| -> Option<u64> { read(&dir.join(file))?.trim().parse().ok() };
    let stat = |dir: &Path, key: &str| -> u64 {
        read(&dir.join("memory.stat"))
            .and_then(|text| {
                text.lines().find_map(|line| {
                    let (name, value) = line.split_once(' ')?;
                    (name == key).then(|| value.trim().parse().ok()).flatten()
                })
            })
            .unwrap_or(0)
    };
    let mut least: Option<u64> = None;
    for line in groups.lines() {
        // `ID:CONTROLLERS:PATH`: v2's is `0::PATH`, v1's memory controller lists `memory`.
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let v2 = controllers.is_empty();
        if !v2 && !controllers.split(',').any(|c| c == "memory") {
            continue;
        }
        let Some((root, mount_point)) = cgroup_mount(mounts, v2) else { continue };
        // The group's directory under the mount (a namespaced mount's root is the group's own).
        let relative = path.strip_prefix(root.as_str()).unwrap_or(path).trim_start_matches('/');
        let mut dir = mount_point.join(relative);
        loop {
            let left = if v2 {
                let limit = number(&dir, "memory.max");
                let used = number(&dir, "memory.current");
                limit.zip(used).map(|(limit, used)| (limit, used, stat(&dir, "inactive_file")))
            } else {
                let limit = number(&dir, "memory.limit_in_bytes").filter(|&l| l < 1 << 60);
                let used = number(&dir, "memory.usage_in_bytes");
                limit
                    .zip(used)
                    .map(|(limit, used)| (limit, used, stat(&dir, "total_inactive_file")))
            };
            if let Some((limit, used, reclaimable)) = left {
                let free = limit.saturating_sub(used.saturating_sub(reclaimable));
                least = Some(least.map_or(free, |least| least.min(free)));
            }
            if dir == mount_point || !dir.pop() {
                break;
            }
        }
    }
    least
}

/// The root and mount point of the cgroup v2 hierarchy (`v2`) or of v1's memory controller, from
/// `/proc/self/mountinfo`.
fn cgroup_mount(mounts: &str, v2: bool) -> Option<(String, PathBuf)> {
    mounts.lines().find_map(|line| {
        // `ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [TAGS] - TYPE SOURCE SUPER-OPTIONS`
        let (before, after) = line.split_once(" - ")?;
        let fields: Vec<&str> = before.split(' ').collect();
        let mut after = after.split(' ');
        let kind = after.next()?;
        let options = after.nth(1).unwrap_or("");
        let wanted = if v2 {
            kind == "cgroup2"
        } else {
            kind == "cgroup" && options.split(',').any(|option| option == "memory")
        };
        (wanted && fields.len() >= 5).then(|| (fields[3].to_string(), PathBuf::from(fields[4])))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
        let map: HashMap<PathBuf, String> =
            entries.iter().map(|(p, c)| (PathBuf::from(p), c.to_string())).collect();
        move |path: &Path| map.get(path).cloned()
    }

    const V1_MOUNTS: &str = "\
        30 25 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n\
        31 25 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";
    const V2_MOUNTS: &str = "29 24 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";

    /// cgroup v1: the least over the group and its ancestors of limit − (usage − inactive
    /// files); "no limit" (a huge number) counts for nothing.
    #[test]
    fn version_1_limits_are_read_up_the_hierarchy() {
        let read = files(&[
            ("/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes", "1073741824\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.usage_in_bytes", "536870912\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.stat", "cache 1\ntotal_inactive_file 100\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "536870912\n"),
        ]);
        let groups = "4:memory:/jobs/a\n3:cpu:/\n";
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), Some(536_871_012));
        // An ancestor's tighter limit wins.
        let read = files(&[
            ("/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes", "1073741824\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.usage_in_bytes", "0\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "1000\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "400\n"),
        ]);
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), Some(600));
        // No limit anywhere.
        let read = files(&[(
            "/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes",
            "9223372036854771712\n",
        )]);
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), None);
    }

    /// cgroup v2, in a container whose namespace makes its group the root, and on a host.
    #[test]
    fn version_2_limits_are_read() {
        let read = files(&[
            ("/sys/fs/cgroup/memory.max", "1073741824\n"),
            ("/sys/fs/cgroup/memory.current", "73741824\n"),
            ("/sys/fs/cgroup/memory.stat", "anon 5\ninactive_file 1000\n"),
        ]);
        assert_eq!(cgroup_available(V2_MOUNTS, "0::/\n", &read), Some(1_000_001_000));
        let read = files(&[
            ("/sys/fs/cgroup/user.slice/job/memory.max", "max\n"),
            ("/sys/fs/cgroup/user.slice/job/memory.current", "5\n"),
            ("/sys/fs/cgroup/user.slice/memory.max", "2000\n"),
            ("/sys/fs/cgroup/user.slice/memory.current", "500\n"),
        ]);
        assert_eq!(cgroup_available(V2_MOUNTS, "0::/user.slice/job\n", &read), Some(1500));
        assert_eq!(cgroup_available("", "0::/\n", &read), None);
    }
}
