/*
 * payload_scenarios.c - the payload suite's scenario table: every
 * scenario once, in the order of the tables' columns and of --help.  A
 * new scenario is a file defining its struct scenario and a line here
 * (docs/payload.md, "Adding a scenario").
 */
#include "suites/payload.h"

extern const struct scenario scenario_base;      /* payload_floor.c */
extern const struct scenario scenario_literal;   /* payload_single.c */
extern const struct scenario scenario_full_scan; /* payload_single.c */
extern const struct scenario scenario_real_life; /* payload_reallife.c */
extern const struct scenario scenario_per_rule;  /* payload_perrule.c */
extern const struct scenario scenario_touch;     /* payload_floor.c */

const struct scenario *const payload_scenarios[] = {
	&scenario_base,
	&scenario_literal,
	&scenario_full_scan,
	&scenario_real_life,
	&scenario_per_rule,
	&scenario_touch,
};

#define NSCEN (sizeof(payload_scenarios) / sizeof(payload_scenarios[0]))
_Static_assert(NSCEN <= 32, "--scenarios keeps a bit per scenario");

const size_t payload_nscenarios = NSCEN;
