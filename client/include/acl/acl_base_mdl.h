/*
 * Placeholder. The model (aclmdl*) base definitions ship with the model package,
 * which is not part of this runtime; this file only keeps existing include lines working.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */
