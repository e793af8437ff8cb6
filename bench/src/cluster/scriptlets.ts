/**
 * The scriptlet of the performance bars: it reads `get_cluster_member_state` of every
 * candidate (one cross-member call per candidate in LXD/Incus) and picks the
 * member with the most free memory.
 */
export const STATE_READING_SCRIPTLET = `
def instance_placement(request, candidate_members):
    best = None
    best_free = -1
    for candidate in candidate_members:
        state = get_cluster_member_state(candidate.server_name)
        free = state.sysinfo.free_ram
        if free > best_free:
            best = candidate.server_name
            best_free = free
    if best == None:
        fail("no candidate")
    set_target(best)
`;

/** A scriptlet that never ends on its own: the step limit (or deadline) must stop it. */
export const RUNAWAY_SCRIPTLET = `
def instance_placement(request, candidate_members):
    n = 0
    for i in range(1000000000):
        n += i
    set_target(candidate_members[0].server_name)
`;

/** A scriptlet that tries to build a huge string and a huge list: the size limits must stop it. */
export const MEMORY_BOMB_SCRIPTLET = `
def instance_placement(request, candidate_members):
    s = "x"
    for i in range(64):
        s = s + s
    big = [0] * 10000000000
    set_target(candidate_members[0].server_name)
`;

/** A list-growth bomb that stays under the string limit: the collection limit must stop it. */
export const LIST_BOMB_SCRIPTLET = `
def instance_placement(request, candidate_members):
    items = []
    for i in range(1000000000):
        items.append(i)
    set_target(candidate_members[0].server_name)
`;

/**
 * #17's bombs: every list (1,000,000 slots) and string (1 MB) stays under the
 * per-value caps; kept alive they exhausted the heap. The run's allocation
 * budget (`instances.placement.scriptlet.max_memory`) must stop them.
 */
export const LIST_OF_LISTS_BOMB_SCRIPTLET = `
def instance_placement(request, candidate_members):
    keep = []
    for i in range(1000000):
        keep.append([0] * 1000000)
    set_target(candidate_members[0].server_name)
`;

export const REPLACE_BOMB_SCRIPTLET = `
def instance_placement(request, candidate_members):
    keep = []
    s = "x" * 1000
    for i in range(1000000):
        keep.append(s.replace("x", "y" * 1000))
    set_target(candidate_members[0].server_name)
`;
