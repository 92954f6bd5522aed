// SPDX-License-Identifier: GPL-2.0
/* An object with data and no code: there is nothing to unwind. */
const char kunwind_hostile_data[] = "no code here";
