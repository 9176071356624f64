/*
 * path — file system paths as users give them: absolute forms of relative paths, and the directory
 * a path names a file in.
 */
#ifndef LADDER_UTIL_PATH_H
#define LADDER_UTIL_PATH_H

/* An absolute form of path: resolved (symbolic links, "..") when it exists, else joined to the
 * working directory. A fresh string. */
char *path_absolute(const char *path);

/* The directory holding path's last component: "/a/b" -> "/a", "/b" -> "/", "b" -> ".". A fresh
 * string. */
char *path_dirname(const char *path);

#endif
