/* Drop-in replacement for METIS's k-way entry points, served by gnnpart. Link with
 * -lgnnpart_metis (CMake: gnnpart::metis) instead of -lmetis; callers keep their code and their
 * #include <metis.h> (or include this header instead). Never link it together with libmetis.
 *
 * Honoured: NULL vwgt/adjwgt (unit), ncon, ubvec (the strictest constraint applies to all),
 * options[METIS_OPTION_SEED], [METIS_OPTION_OBJTYPE] (CUT or VOL), [METIS_OPTION_UFACTOR],
 * [METIS_OPTION_NUMBERING] (0 or 1). tpwgts must be NULL or uniform; vsize is ignored.
 * Inputs are never modified. Returns METIS_OK, METIS_ERROR_INPUT, METIS_ERROR_MEMORY or
 * METIS_ERROR; gnnpart_metis_last_error() gives the reason. Built for 32-bit idx_t and float
 * real_t (Debian's METIS 5.1). */
#ifndef GNNPART_GNNPART_METIS_H
#define GNNPART_GNNPART_METIS_H

#include <stdint.h>

#ifndef _METIS_H_
#define _METIS_H_
#define IDXTYPEWIDTH 32
#define REALTYPEWIDTH 32
typedef int32_t idx_t;
typedef float real_t;
#define METIS_NOPTIONS 40

typedef enum {
  METIS_OK = 1,
  METIS_ERROR_INPUT = -2,
  METIS_ERROR_MEMORY = -3,
  METIS_ERROR = -4
} rstatus_et;

typedef enum {
  METIS_OPTION_PTYPE,
  METIS_OPTION_OBJTYPE,
  METIS_OPTION_CTYPE,
  METIS_OPTION_IPTYPE,
  METIS_OPTION_RTYPE,
  METIS_OPTION_DBGLVL,
  METIS_OPTION_NITER,
  METIS_OPTION_NCUTS,
  METIS_OPTION_SEED,
  METIS_OPTION_NO2HOP,
  METIS_OPTION_MINCONN,
  METIS_OPTION_CONTIG,
  METIS_OPTION_COMPRESS,
  METIS_OPTION_CCORDER,
  METIS_OPTION_PFACTOR,
  METIS_OPTION_NSEPS,
  METIS_OPTION_UFACTOR,
  METIS_OPTION_NUMBERING,
  METIS_OPTION_HELP,
  METIS_OPTION_TPWGTS,
  METIS_OPTION_NCOMMON,
  METIS_OPTION_NOOUTPUT,
  METIS_OPTION_BALANCE,
  METIS_OPTION_GTYPE,
  METIS_OPTION_UBVEC
} moptions_et;

typedef enum { METIS_PTYPE_RB, METIS_PTYPE_KWAY } mptype_et;
typedef enum { METIS_OBJTYPE_CUT, METIS_OBJTYPE_VOL, METIS_OBJTYPE_NODE } mobjtype_et;

#ifdef __cplusplus
extern "C" {
#endif
int METIS_PartGraphKway(idx_t* nvtxs, idx_t* ncon, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                        idx_t* vsize, idx_t* adjwgt, idx_t* nparts, real_t* tpwgts, real_t* ubvec,
                        idx_t* options, idx_t* edgecut, idx_t* part);
int METIS_SetDefaultOptions(idx_t* options);
#ifdef __cplusplus
}
#endif
#endif /* _METIS_H_ */

#ifdef __cplusplus
extern "C" {
#endif
/* Why the last METIS_PartGraphKway call on this thread failed ("" when it did not). */
const char* gnnpart_metis_last_error(void);
#ifdef __cplusplus
}
#endif

#endif /* GNNPART_GNNPART_METIS_H */
