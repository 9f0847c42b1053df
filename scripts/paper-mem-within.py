"""Why the paper's MEM scores far below RAND within templates (B 2.4, 2B 3.2): a check.

The original's template-aware MEM evaluates each template's test tasks in a sub-loop that
enumerates the template's own tasks from 0 and logs attempt `i` to the evaluator built over the
whole test list (its agents/offline_agents.py). The first template's tasks are the first 20 of
the sorted list, so they are logged under their own indices and use up their 100 attempts; every
later template's task `i` lands on an index that is already full, so nothing is logged for it.
Only the first template's tasks get attempts, and the fold's AUCCESS is theirs divided by 25.

This script computes, from an outcome table that `rephyre eval --cache` wrote, per fold: MEM per
template over all test tasks, and the same with only the first template's tasks counted, beside
the paper's per-fold MEM (supplement, Table 1).

Usage: python paper-mem-within.py TABLE.ckpt TIER [ACTIONS]
  TABLE.ckpt: `rephyre eval --cache table` writes table.ball.ckpt / table.two_balls.ckpt.
  TIER: ball or two_balls. ACTIONS: columns of the table to rank (default 1000).
Needs phyre 0.2.2 (Python 3.9) only for `get_fold`, the folds of the original.
"""
import json
import math
import sys

import phyre

PAPER_MEM_WITHIN = {
    "ball": [0.0198, 0.0258, 0.0230, 0.0269, 0.0223, 0.0286, 0.0237, 0.0214, 0.0223, 0.0288],
    "two_balls": [0.0325, 0.0336, 0.0315, 0.0371, 0.0304, 0.0314, 0.0282, 0.0320, 0.0330, 0.0347],
}
INVALID, NOT_SOLVED, SOLVED = 0, 1, 2  # rephyre's status codes in the table


def auccess(solved_at, n_tasks):
    weights = [math.log(k + 1) - math.log(k) for k in range(1, 101)]
    total = sum(
        w * sum(1 for s in solved_at if s is not None and s <= k) / n_tasks
        for k, w in zip(range(1, 101), weights)
    )
    return total / sum(weights)


def main():
    path, tier = sys.argv[1], sys.argv[2]
    n_actions = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    table = json.load(open(path))
    codes = {task[0]: task[2]["codes"] for task in table["tasks"]}
    setup = f"{tier}_within_template"
    for fold in range(10):
        train, dev, test = phyre.get_fold(setup, fold)
        # The table's rows are the tier's tasks in sorted id order.
        row = {task_id: i for i, task_id in enumerate(sorted(train + dev + test))}
        train = train + dev  # the original's final runs train on both
        template = lambda task_id: task_id.split(":")[0]

        def ranking(tpl):
            solved, tried = [0] * n_actions, [0] * n_actions
            for task_id in train:
                if template(task_id) != tpl:
                    continue
                c = codes[row[task_id]]
                for a in range(n_actions):
                    solved[a] += c[a] == SOLVED
                    tried[a] += c[a] != INVALID
            score = [solved[a] / (tried[a] + 1) for a in range(n_actions)]
            return sorted(range(n_actions), key=lambda a: (-score[a], a))

        def solved_at(task_id, order):
            c, valid = codes[row[task_id]], 0
            for a in order:
                if c[a] == INVALID:
                    continue
                valid += 1
                if c[a] == SOLVED:
                    return valid
                if valid == 100:
                    return None
            return None

        test = sorted(test)
        orders = {}
        result = []
        for task_id in test:
            tpl = template(task_id)
            if tpl not in orders:
                orders[tpl] = ranking(tpl)
            result.append(solved_at(task_id, orders[tpl]))
        first = template(test[0])
        first_only = [s if template(t) == first else None for t, s in zip(test, result)]
        print(
            f"fold {fold}: MEM per template {auccess(result, len(test)):.4f}, "
            f"first template only {auccess(first_only, len(test)):.4f}, "
            f"paper {PAPER_MEM_WITHIN[tier][fold]:.4f}"
        )


if __name__ == "__main__":
    main()
