/*
 * TDT queues: bounded message queues on a device, identified by a queue id
 * (and a name unique on the device), and routes that forward what is
 * enqueued on one queue to others. With npud the queues live in the
 * daemon and belong to the process that created them (destroyed, with
 * their routes, when it exits).
 *
 * As in CANN's host mode, sharing queues with other processes
 * (acltdtGrantQueue, acltdtAttachQueue) and the mbuf functions (acltdtBuf)
 * return ACL_ERROR_FEATURE_UNSUPPORTED.
 *
 * Functions exported by libacl_tdt_queue.so (npud: the same library as
 * libacl_rt.so).
 */
#ifndef INC_EXTERNAL_ACL_ACL_TDT_QUEUE_H_
#define INC_EXTERNAL_ACL_ACL_TDT_QUEUE_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_TDT_QUEUE_PERMISSION_MANAGE 1
#define ACL_TDT_QUEUE_PERMISSION_DEQUEUE 2
#define ACL_TDT_QUEUE_PERMISSION_ENQUEUE 4

/* A route's status. */
#define ACL_TDT_QUEUE_ROUTE_UNBIND 0
#define ACL_TDT_QUEUE_ROUTE_BIND 1
#define ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL 2

typedef void* acltdtBuf;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef struct acltdtQueueRoute acltdtQueueRoute;

/* Queue attributes: the name as a `const char*` (param points at it), the
 * depth as a uint32_t (at least 2; default 8). */
typedef enum { ACL_TDT_QUEUE_NAME_PTR = 0, ACL_TDT_QUEUE_DEPTH_UINT32 } acltdtQueueAttrType;

typedef enum {
  ACL_TDT_QUEUE_ROUTE_SRC_UINT32 = 0,
  ACL_TDT_QUEUE_ROUTE_DST_UINT32,
  ACL_TDT_QUEUE_ROUTE_STATUS_INT32
} acltdtQueueRouteParamType;

/* Which bound routes a query returns: by source, by destination, the one
 * pair, or the abnormal ones. */
typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC = 0,
  ACL_TDT_QUEUE_ROUTE_QUERY_DST = 1,
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST = 2,
  ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL = 100
} acltdtQueueRouteQueryMode;

typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM = 0,
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,
  ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32
} acltdtQueueRouteQueryInfoParamType;

typedef enum { ACL_TDT_NORMAL_MEM = 0, ACL_TDT_DVPP_MEM } acltdtAllocBufType;

/* On the current device; attr may be NULL (an unnamed queue of depth 8). */
ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid);
/* Fails (ACL_ERROR_FAILURE) while routes to or from the queue are bound. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid);
ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout);
/* One message of dataSize bytes, with up to 4096 bytes of user data (npud's
 * bound) beside it. */
ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize,
                                               const void* userData, size_t userDataSize,
                                               int32_t timeout, uint32_t rsv);
/* The next message into data (dataSize bytes of room; its length in
 * *retDataSize) and up to userDataSize bytes of its user data into userData.
 * A message larger than dataSize stays queued (ACL_ERROR_RT_PARAM_INVALID,
 * *retDataSize says how much room it needs). */
ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize,
                                               size_t* retDataSize, void* userData,
                                               size_t userDataSize, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission,
                                              int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission);

/* Binding writes each route's status back into the list; every route must
 * bind. A route may not start at its own end, nor chain onto another. */
ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList);
ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList);
/* Replaces the list's contents with the bound routes the query names. */
ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                                    acltdtQueueRouteList* qRouteList);

ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf);
ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size);
ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len);
ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num);
ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index,
                                                   acltdtBuf* buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size,
                                                  size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size,
                                                  size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf);

ACL_FUNC_VISIBILITY acltdtQueueAttr* acltdtCreateQueueAttr();
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr);
ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type,
                                                size_t len, const void* param);
/* The name comes back as a pointer into attr. */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr,
                                                acltdtQueueAttrType type, size_t len,
                                                size_t* paramRetSize, void* param);

ACL_FUNC_VISIBILITY acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route);
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route,
                                                      acltdtQueueRouteParamType type, size_t len,
                                                      size_t* paramRetSize, void* param);

/* A list holds copies of the routes added to it. */
ACL_FUNC_VISIBILITY acltdtQueueRouteList* acltdtCreateQueueRouteList();
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList);
ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList,
                                                 const acltdtQueueRoute* route);
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList,
                                                 size_t index, acltdtQueueRoute* route);
ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList);

ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo();
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info);
ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                                          acltdtQueueRouteQueryInfoParamType type,
                                                          size_t len, const void* value);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_TDT_QUEUE_H_ */
