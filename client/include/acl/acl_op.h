/*
 * Placeholder. The single-operator API (aclop*) ships with the operator package,
 * which is not part of this runtime; this file only keeps existing include lines working.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */
