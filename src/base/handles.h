/* =================================================================================================
 * handles.h: the handles the library gave out and has not taken back, process-wide (handles.c).
 * A call checks its handles here before it reads them, so that a destroyed handle, one destroyed
 * twice, or a pointer the library never made gets OCL_REDUCE_ERROR_MISUSE, as SQLite answers
 * SQLITE_MISUSE, where it would otherwise read freed memory. (An address that malloc gave again
 * to a new handle of the same kind is that new handle: no registry can tell them apart.)
 * ============================================================================================== */
#ifndef ORX_HANDLES_H
#define ORX_HANDLES_H

typedef enum orx_handle_kind {
  ORX_HANDLE_CONTEXT = 1, /* the application's: from create to destroy */
  ORX_HANDLE_CONTEXT_MEMORY, /* the struct's: from create to the last reference's release */
  ORX_HANDLE_BUFFER,
  ORX_HANDLE_OPERATOR,
  ORX_HANDLE_PROGRAM,
  ORX_HANDLE_GROUP
} orx_handle_kind;

/* Records a handle as given out: 0 when out of host memory. */
int orx_handle_add(const void *handle, orx_handle_kind kind);
/* Takes a handle back: 1 when it was live (its destroy goes on), 0 when it was not (a second
 * destroy, or a stray pointer: nothing to do). */
int orx_handle_remove(const void *handle, orx_handle_kind kind);
/* Whether handle is live as kind; when it is and hold is not NULL, hold(handle) runs before any
 * remove can (taking a reference that keeps the handle's memory until the caller is done). */
int orx_handle_live(const void *handle, orx_handle_kind kind, void (*hold)(void *handle));

#endif /* ORX_HANDLES_H */
