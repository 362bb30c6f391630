"""The seeded streams every rule draws from."""

from pate.core.rng import Rng, derive_seed


def test_same_seed_same_draws() -> None:
    a = Rng.for_phase(7, 3, "movement")
    b = Rng.for_phase(7, 3, "movement")
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]


def test_phases_and_turns_draw_differently() -> None:
    assert derive_seed(7, 3, "movement") != derive_seed(7, 3, "combat")
    assert derive_seed(7, 3, "movement") != derive_seed(7, 4, "movement")


def test_known_first_value_is_stable_across_versions() -> None:
    # SplitMix64 reference value for seed 0: pins the generator itself.
    assert Rng(0).next_u64() == 0xE220A8397B1DCDAF


def test_below_is_uniform_enough() -> None:
    rng = Rng(42)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    assert all(9_500 < c < 10_500 for c in counts)


def test_chance_clamps() -> None:
    rng = Rng(1)
    assert not any(rng.chance(0) for _ in range(100))
    assert all(rng.chance(100) for _ in range(100))
    assert all(rng.chance(180) for _ in range(100))


def test_fork_is_independent_of_draw_count_elsewhere() -> None:
    base = Rng.for_phase(1, 1, "combat")
    first = base.fork("NOC").random()
    again = Rng.for_phase(1, 1, "combat").fork("NOC").random()
    assert first == again
