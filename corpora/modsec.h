/*
 * modsec.h - which ModSecurity reads a rule set (the payload suite's
 * --modsec): libmodsecurity3 (v3, what nginx's connector and Debian ship)
 * or Apache's mod_security2 (v2).  The rule reader (corpora/rules.h), the
 * request parser (corpora/http_req.h) and the variables and
 * transformations (corpora/waf.h) follow the version chosen where the two
 * differ; each difference is named where it is made.
 */
#ifndef RXB_MODSEC_H
#define RXB_MODSEC_H

enum modsec_version {
	MODSEC_V2 = 2,
	MODSEC_V3 = 3,
};

#define MODSEC_DEFAULT MODSEC_V3

#endif
